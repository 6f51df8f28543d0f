package server

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzReadLine: readLine gives the input's lines in order, each without
// its newline, and drops (errLineTooLong) exactly those longer than the
// limit, reading on after them.
func FuzzReadLine(f *testing.F) {
	f.Add([]byte("a\nbb\n\nccc"), 2)
	f.Add(bytes.Repeat([]byte("x"), 300), 100)
	f.Add([]byte("short\n"+string(bytes.Repeat([]byte("y"), 5000))+"\nnext\n"), 64)
	f.Fuzz(func(t *testing.T, in []byte, max int) {
		if max < 1 || max > 1<<16 {
			return
		}
		r := bufio.NewReaderSize(bytes.NewReader(in), 16)
		var want [][]byte
		for _, l := range bytes.SplitAfter(in, []byte{'\n'}) {
			if len(l) == 0 {
				continue
			}
			want = append(want, bytes.TrimSuffix(l, []byte{'\n'}))
		}
		for i := 0; ; i++ {
			line, err := readLine(r, max)
			if errors.Is(err, io.EOF) && len(line) == 0 {
				if i != len(want) {
					t.Fatalf("%d lines read, want %d", i, len(want))
				}
				return
			}
			if i >= len(want) {
				t.Fatalf("line %d beyond the input", i)
			}
			switch {
			case errors.Is(err, errLineTooLong):
				if len(want[i]) <= max {
					t.Fatalf("line %d (%d bytes) dropped, limit %d", i, len(want[i]), max)
				}
			case err != nil && !errors.Is(err, io.EOF):
				t.Fatal(err)
			case len(line) > max:
				t.Fatalf("line %d kept with %d bytes, limit %d", i, len(line), max)
			case !bytes.Equal(line, want[i]):
				t.Fatalf("line %d = %q, want %q", i, line, want[i])
			}
		}
	})
}
