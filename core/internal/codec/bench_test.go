package codec

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
)

var benchSizes = []int{1000, 10000, 100000}

// benchText returns the YAML or JSON text of the generated document of n
// items. Inputs are made per benchmark and the document is dropped (and
// the heap collected) before timing, so that the measured code does not
// pay for marking the harness's data.
func benchText(n int, json bool) []byte {
	doc := sampledoc.Doc(n, 1)
	var text []byte
	if json {
		text = EncodeJSON(doc)
	} else {
		text = EncodeYAML(doc)
	}
	runtime.GC()
	return text
}

// benchDoc returns the generated document of n items and the size of its
// text in the given encoding.
func benchDoc(n int, json bool) (*noggin.Document, int) {
	doc := sampledoc.Doc(n, 1)
	size := len(EncodeYAML(doc))
	if json {
		size = len(EncodeJSON(doc))
	}
	runtime.GC()
	return doc, size
}

func sizeName(n int) string { return fmt.Sprintf("%dk", n/1000) }

// benchDecode times decode on the generated noggins of sizes.
func benchDecode(b *testing.B, sizes []int, decode func(text []byte) error) {
	b.Helper()
	for _, n := range sizes {
		b.Run(sizeName(n), func(b *testing.B) {
			text := benchText(n, false)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				if err := decode(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecodeYAML(b *testing.B) {
	benchDecode(b, benchSizes, func(text []byte) error { _, err := DecodeYAML(text); return err })
}

// BenchmarkDecodeYAMLLazy is the lazy read of a file this encoder wrote
// (keys and parent keys only, and the Source of a write): what a CLI verb
// reads instead of BenchmarkDecodeYAML.
func BenchmarkDecodeYAMLLazy(b *testing.B) {
	benchDecode(b, benchSizes, func(text []byte) error {
		if _, _, ok := decodeYAMLLazy(text, nil, noGuard, errLazyTest); !ok {
			return errors.New("not read lazily")
		}
		return nil
	})
}

// BenchmarkDecodeYAMLGeneral is the general-parser path alone, for
// comparison (the fast reader falls back to it for unusual input).
func BenchmarkDecodeYAMLGeneral(b *testing.B) {
	benchDecode(b, benchSizes[:2], func(text []byte) error { _, err := decodeYAMLSlow(text); return err })
}

func BenchmarkEncodeYAML(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			doc, size := benchDoc(n, false)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				EncodeYAML(doc)
			}
		})
	}
}

// BenchmarkWriteYAML is the streaming save (to io.Discard): no
// document-sized buffer.
func BenchmarkWriteYAML(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			doc, size := benchDoc(n, false)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				if err := writeYAML(io.Discard, doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWriteYAMLFrom is a push's write (one item added, the active
// item changed) copied from its source, to a file overwritten in place:
// the kernel's copy into the page cache is part of the work.
func BenchmarkWriteYAMLFrom(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(sizeName(n), func(b *testing.B) {
			text := benchText(n, false)
			doc, src, err := decodeYAMLSource(text, nil)
			if err != nil || src == nil {
				b.Fatalf("no source: %v", err)
			}
			pushed := *doc
			added := &noggin.Item{Key: "i-bench-pushed", ParentKey: doc.Active, Title: "pushed"}
			pushed.Items = append(doc.Items[:len(doc.Items):len(doc.Items)], added)
			pushed.Active = added.Key
			f, err := os.Create(filepath.Join(b.TempDir(), "n.yaml"))
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := f.Seek(0, io.SeekStart); err != nil {
					b.Fatal(err)
				}
				src.next = 0
				if err := writeYAMLFrom(f, &pushed, src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecodeJSON(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			text := benchText(n, true)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := DecodeJSON(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEncodeJSON(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			doc, size := benchDoc(n, true)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				EncodeJSON(doc)
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
			text := benchText(n, false)
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				c := 0
				for _, x := range text {
					if x == '\n' {
						c++
					}
				}
				sinkInt = c
			}
		})
	}
}
