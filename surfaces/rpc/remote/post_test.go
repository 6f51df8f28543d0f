package remote

import (
	"bufio"
	"errors"
	"strings"
	"testing"
)

func TestReadAnswer(t *testing.T) {
	cases := []struct {
		name, in string
		status   int
		body     string
		err      error
	}{
		{"length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", 200, "hello", nil},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nTrailer: x\r\n\r\n", 200, "hello, world", nil},
		{"to the end", "HTTP/1.0 404 Not Found\r\nContent-Type: text/plain\r\n\r\n404 page not found\n", 404, "404 page not found\n", nil},
		{"empty", "HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n", 401, "", nil},
		{"not HTTP", "SSH-2.0-OpenSSH\r\n", 0, "", errMalformed},
		{"bad length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", 0, "", errMalformed},
		{"bad chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 0, "", errMalformed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body, err := readAnswer(bufio.NewReader(strings.NewReader(c.in)))
			if !errors.Is(err, c.err) || err == nil && (status != c.status || string(body) != c.body) {
				t.Errorf("got %d %q %v, want %d %q %v", status, body, err, c.status, c.body, c.err)
			}
		})
	}
	// A body cut short is an error, never a shorter answer.
	if _, _, err := readAnswer(bufio.NewReader(strings.NewReader("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nshort"))); err == nil {
		t.Error("a truncated body was accepted")
	}
}

// FuzzReadAnswer: whatever a server (or something that is not one) sends,
// reading its answer never panics and never returns more than maxAnswer.
func FuzzReadAnswer(f *testing.F) {
	f.Add("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
	f.Add("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
	f.Add("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffff\r\n")
	f.Add("HTTP/1.1 200\r\n\r\n")
	f.Fuzz(func(t *testing.T, in string) {
		_, body, err := readAnswer(bufio.NewReader(strings.NewReader(in)))
		if err == nil && len(body) > maxAnswer {
			t.Fatalf("%d bytes", len(body))
		}
	})
}
