package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// guardStdio sits between stdin/stdout and the SDK's stdio transport so
// that no input ends the session: the SDK ends it on the first line that is
// not a JSON-RPC message. Each input line is checked first: a line that is
// not JSON is answered with -32700 (parse error), one that is not a
// JSON-RPC 2.0 request, notification or response with -32600 (invalid
// request), a request before initialize with -32600 too; only the rest
// reach the SDK. Answers and the SDK's output are written whole lines at a
// time, so they never interleave.
func guardStdio(in io.Reader, out io.Writer) (io.ReadCloser, io.WriteCloser) {
	pr, pw := io.Pipe()
	w := &lineWriter{out: out}
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64*1024), 64<<20)
		initialized := false
		for sc.Scan() {
			line := sc.Bytes()
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			id, method, code, msg := check(line)
			if code == 0 && method != "" && !initialized && method != "initialize" && method != "ping" && id != nil {
				code, msg = jsonrpc.CodeInvalidRequest, "the session is not initialized: send initialize first"
			}
			if method == "initialize" {
				initialized = true
			}
			if code != 0 {
				w.answer(id, code, msg)
				continue
			}
			if _, err := pw.Write(append(append([]byte(nil), line...), '\n')); err != nil {
				return
			}
		}
		pw.CloseWithError(sc.Err())
	}()
	return pr, w
}

// check classifies one input line: its id (nil when absent or unreadable),
// its method, and an error code and message when it must not reach the SDK.
func check(line []byte) (id json.RawMessage, method string, code int64, msg string) {
	if !json.Valid(line) {
		return nil, "", jsonrpc.CodeParseError, "parse error: the line is not JSON"
	}
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if json.Unmarshal(line, &m) != nil {
		return nil, "", jsonrpc.CodeInvalidRequest, "invalid request: a JSON-RPC message is an object"
	}
	if len(m.ID) > 0 && m.ID[0] != '"' && (m.ID[0] < '0' || m.ID[0] > '9') && m.ID[0] != '-' && string(m.ID) != "null" {
		return nil, "", jsonrpc.CodeInvalidRequest, "invalid request: id must be a string or a number"
	}
	switch {
	case m.JSONRPC != "2.0":
		return m.ID, "", jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`
	case m.Method != nil && *m.Method == "":
		return m.ID, "", jsonrpc.CodeInvalidRequest, "invalid request: empty method"
	case m.Method == nil && m.Result == nil && m.Error == nil:
		return m.ID, "", jsonrpc.CodeInvalidRequest, "invalid request: no method"
	}
	if m.Method != nil {
		method = *m.Method
	}
	return m.ID, method, 0, ""
}

// lineWriter writes whole lines to out under a lock.
type lineWriter struct {
	mu   sync.Mutex
	out  io.Writer
	part []byte
}

// Write implements io.Writer: complete lines go out at once, the rest waits.
func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.part = append(w.part, p...)
	if i := bytes.LastIndexByte(w.part, '\n'); i >= 0 {
		if _, err := w.out.Write(w.part[:i+1]); err != nil {
			return 0, err
		}
		w.part = append(w.part[:0], w.part[i+1:]...)
	}
	return len(p), nil
}

// Close implements io.Closer (closing out if it is a Closer).
func (w *lineWriter) Close() error {
	if c, ok := w.out.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// answer writes a JSON-RPC error response (id null when unknown).
func (w *lineWriter) answer(id json.RawMessage, code int64, msg string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   any             `json:"error"`
	}{"2.0", id, struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	_, _ = w.Write(append(b, '\n'))
}
