// Command spawn runs the report's measured commands (make bench-report):
// one JSON request a line on stdin ({"args": [...], "env": [...]}), one
// JSON answer a line on stdout (wall and CPU time, peak RSS, output, error).
// A child's peak RSS counts the address space of the process that started
// it (Go starts children with vfork, and exec records that space's peak),
// so the report's own process, which links all of noggin, starts none of
// the commands it measures: this small one does.
package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"syscall"
	"time"
)

type request struct {
	Args []string `json:"args"`
	Env  []string `json:"env"`
}

type answer struct {
	WallNS    int64  `json:"wallNs"`
	CPUNS     int64  `json:"cpuNs"`
	MaxRSSKiB int64  `json:"maxRssKiB"`
	Output    string `json:"output"`
	Error     string `json:"error,omitempty"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var req request
		var a answer
		if err := json.Unmarshal(in.Bytes(), &req); err != nil || len(req.Args) == 0 {
			a.Error = "bad request"
		} else {
			a = run(req)
		}
		if err := out.Encode(a); err != nil {
			os.Exit(1)
		}
	}
}

func run(req request) answer {
	cmd := exec.Command(req.Args[0], req.Args[1:]...)
	cmd.Env = req.Env
	start := time.Now()
	output, err := cmd.CombinedOutput()
	a := answer{WallNS: int64(time.Since(start)), Output: string(output)}
	if err != nil {
		a.Error = err.Error()
	}
	if st := cmd.ProcessState; st != nil {
		a.CPUNS = int64(st.UserTime() + st.SystemTime())
		if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
			a.MaxRSSKiB = ru.Maxrss
		}
	}
	return a
}
