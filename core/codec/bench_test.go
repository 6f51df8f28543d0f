package codec

import (
	"fmt"
	"sync"
	"testing"

	"github.com/noggin-go/noggin/core/internal/gen"
	"github.com/noggin-go/noggin/core/noggin"
)

var benchSizes = []int{1000, 10000, 100000}

type benchDoc struct {
	doc        *noggin.Document
	yaml, json []byte
}

var (
	benchMu    sync.Mutex
	benchCache = map[int]*benchDoc{}
)

func benchInput(n int) *benchDoc {
	benchMu.Lock()
	defer benchMu.Unlock()
	if d, ok := benchCache[n]; ok {
		return d
	}
	doc := gen.Doc(n, 1)
	d := &benchDoc{doc: doc, yaml: EncodeYAML(doc), json: EncodeJSON(doc)}
	benchCache[n] = d
	return d
}

func sizeName(n int) string { return fmt.Sprintf("%dk", n/1000) }

func BenchmarkDecodeYAML(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			in := benchInput(n)
			b.SetBytes(int64(len(in.yaml)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := DecodeYAML(in.yaml); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDecodeYAMLGeneral is the general-parser path alone, for
// comparison (the fast reader falls back to it for unusual input).
func BenchmarkDecodeYAMLGeneral(b *testing.B) {
	for _, n := range benchSizes[:2] {
		b.Run(sizeName(n), func(b *testing.B) {
			in := benchInput(n)
			b.SetBytes(int64(len(in.yaml)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeYAMLSlow(in.yaml); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEncodeYAML(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			in := benchInput(n)
			b.SetBytes(int64(len(in.yaml)))
			b.ReportAllocs()
			for b.Loop() {
				EncodeYAML(in.doc)
			}
		})
	}
}

func BenchmarkDecodeJSON(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			in := benchInput(n)
			b.SetBytes(int64(len(in.json)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := DecodeJSON(in.json); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEncodeJSON(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			in := benchInput(n)
			b.SetBytes(int64(len(in.json)))
			b.ReportAllocs()
			for b.Loop() {
				EncodeJSON(in.doc)
			}
		})
	}
}

var sinkInt int

// BenchmarkScanBaseline is a yardstick for the machine's current speed: one
// trivial pass over the YAML text (counting newlines byte by byte). Codec
// costs are best read as multiples of it on a loaded machine.
func BenchmarkScanBaseline(b *testing.B) {
	for _, n := range benchSizes[:2] {
		b.Run(sizeName(n), func(b *testing.B) {
			in := benchInput(n)
			b.SetBytes(int64(len(in.yaml)))
			for b.Loop() {
				c := 0
				for _, x := range in.yaml {
					if x == '\n' {
						c++
					}
				}
				sinkInt = c
			}
		})
	}
}
