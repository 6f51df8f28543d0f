package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/noggin-go/noggin/core/sampledoc"

	"github.com/noggin-go/noggin/core/codec"
)

// BenchmarkMain runs whole CLI invocations in-process on a 10k-item noggin
// (the file is restored before every push).
func BenchmarkMain(b *testing.B) {
	raw := codec.EncodeYAML(sampledoc.Doc(10000, 1))
	file := filepath.Join(b.TempDir(), "n.yaml")
	getenv := func(k string) string {
		if k == "NOGGIN" {
			return file
		}
		return ""
	}
	for _, argv := range [][]string{{"show", "--json"}, {"show"}, {"push", "x"}} {
		b.Run(argv[0]+fmt.Sprint(len(argv)), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				if err := os.WriteFile(file, raw, 0o644); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if code := Main(context.Background(), argv, nil, io.Discard, io.Discard, getenv); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
