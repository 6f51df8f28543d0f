package store

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestSummed: the digest of a new file written in pieces of every size
// (small ones digested inline, large ones beside the write) is the
// digest of its bytes, and restart starts both over.
func TestSummed(t *testing.T) {
	data := make([]byte, 5<<20)
	_, _ = rand.NewChaCha8([32]byte{3}).Read(data)
	for _, tc := range []struct {
		name   string
		pieces []int
	}{
		{"small pieces", []int{1, 100, 4096, 65536}},
		{"large pieces", []int{256 << 10, 1 << 20, 3 << 20}},
		{"mixed", []int{7, 300 << 10, 12, 1 << 20, 64 << 10}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := os.Create(filepath.Join(t.TempDir(), "n.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			w := &summed{f: f}
			if _, err := w.Write(data[:1000]); err != nil {
				t.Fatal(err)
			}
			if err := w.restart(); err != nil {
				t.Fatal(err)
			}
			at := 0
			for i := 0; at < len(data); i++ {
				n := min(tc.pieces[i%len(tc.pieces)], len(data)-at)
				if _, err := w.Write(data[at : at+n]); err != nil {
					t.Fatal(err)
				}
				at += n
			}
			got, err := os.ReadFile(f.Name())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, data) || w.d.String() != digestOf(data) {
				t.Fatalf("file %d bytes, digest %s; want %d bytes, %s", len(got), w.d.String(), len(data), digestOf(data))
			}
		})
	}
}
