package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
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
		br := bufio.NewReaderSize(in, 64<<10)
		initialized := false
		for {
			line, err := readLine(br, maxLine)
			if errors.Is(err, errLineTooLong) {
				w.answer(nil, jsonrpc.CodeInvalidRequest, "invalid request: the message is over 64 MiB; it was skipped")
				continue
			}
			if err != nil && len(line) == 0 {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				pw.CloseWithError(err)
				return
			}
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			id, method, code, msg, clean := check(line)
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
			if _, err := pw.Write(append(clean, '\n')); err != nil {
				return
			}
		}
	}()
	return pr, w
}

// maxLine is the longest stdio message: every request whose texts core
// takes (request.MaxText) fits.
const maxLine = 64 << 20

var errLineTooLong = errors.New("line too long")

// readLine reads one line (without its newline) of at most max bytes; a
// longer one is read to its end and dropped (errLineTooLong), so that the
// next line is read as usual.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		n := len(line) + len(chunk)
		if err == nil {
			n-- // the newline
		}
		if n > max {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte{'\n'}), err
	}
}

// check classifies one input line: its id (nil when absent or unreadable),
// its method, an error code and message when it must not reach the SDK,
// and otherwise the message re-encoded with exactly the JSON-RPC members
// (matched case-sensitively, other members dropped), so that the SDK sees
// precisely what was checked.
func check(line []byte) (id json.RawMessage, method string, code int64, msg string, clean []byte) {
	if !json.Valid(line) {
		return nil, "", jsonrpc.CodeParseError, "parse error: the line is not JSON", nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil || m == nil {
		return nil, "", jsonrpc.CodeInvalidRequest, "invalid request: a JSON-RPC message is an object", nil
	}
	id = m["id"]
	if len(id) > 0 && id[0] != '"' && (id[0] < '0' || id[0] > '9') && id[0] != '-' {
		return nil, "", jsonrpc.CodeInvalidRequest, "invalid request: id must be a string or a number", nil
	}
	var version string
	if json.Unmarshal(m["jsonrpc"], &version) != nil || version != "2.0" {
		return id, "", jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`, nil
	}
	raw, hasMethod := m["method"]
	if hasMethod && (json.Unmarshal(raw, &method) != nil || method == "") {
		return id, "", jsonrpc.CodeInvalidRequest, "invalid request: method must be a non-empty string", nil
	}
	_, hasResult := m["result"]
	_, hasError := m["error"]
	if !hasMethod && !hasResult && !hasError {
		return id, "", jsonrpc.CodeInvalidRequest, "invalid request: no method", nil
	}
	if p, ok := m["params"]; ok && len(p) > 0 && p[0] != '{' && p[0] != '[' && string(p) != "null" {
		return id, method, jsonrpc.CodeInvalidParams, "invalid params: params must be an object", nil
	}
	out := map[string]json.RawMessage{"jsonrpc": json.RawMessage(`"2.0"`)}
	for _, k := range []string{"id", "method", "params", "result", "error"} {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	clean, _ = json.Marshal(out)
	return id, method, 0, "", clean
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
