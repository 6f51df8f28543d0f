package e2e

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the server cmd starts die with the process that
// started it. A fuzz worker exits without running its cleanup, and a
// server it left behind would hold the worker's pipes to the fuzz
// coordinator open (a child inherits them), so the coordinator would wait
// for it forever: make fuzz hung on FuzzDifferential that way. (Linux
// sends the signal when the thread that started the child ends; the Go
// runtime ends a thread only when a goroutine that locked it ends, and
// nothing here or in the suite's dependencies locks one.)
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
