package store

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// benchFile writes a generated document of n items to a fresh file whose
// mtime is an hour old (so a warm store trusts its stat).
func benchFile(tb testing.TB, n int) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), "bench.yaml")
	if err := os.WriteFile(p, codec.EncodeYAML(sampledoc.Doc(n, 1)), 0o666); err != nil {
		tb.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		tb.Fatal(err)
	}
	return p
}

func sizeName(n int) string { return strconv.Itoa(n/1000) + "k" }

// BenchmarkLoadCold: open a file (stat, read, parse) — what a CLI run pays
// (one-shot: Options.MapFiles, the file stays mapped) and what a server
// pays for a noggin it has not read yet (long-lived: mapped while read,
// its pages dropped as read, then unmapped).
func BenchmarkLoadCold(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		for _, mapped := range []bool{false, true} {
			name := sizeName(n) + "/long-lived"
			if mapped {
				name = sizeName(n) + "/one-shot"
			}
			b.Run(name, func(b *testing.B) {
				p := benchFile(b, n)
				fi, _ := os.Stat(p)
				b.SetBytes(fi.Size())
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					s, err := Open(context.Background(), p, Options{MapFiles: mapped})
					if err != nil {
						b.Fatal(err)
					}
					if _, err := s.Load(context.Background()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkLoadWarm: Load on a long-lived store of an unchanged file — what
// an MCP/RPC read pays before each call.
func BenchmarkLoadWarm(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(sizeName(n), func(b *testing.B) {
			s, err := Open(context.Background(), benchFile(b, n), Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := s.Load(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkUpdate: one push-like write (add a last child of the active item
// and make it active): lock, re-read, apply, encode, temp file + fsync +
// rename + dir fsync, journal. long-lived: on one store (the file compared
// with what the store last wrote); and the live heap after the writes
// (live-MB). one-shot: a CLI run's store, opened for each write (read,
// then the write copies the unchanged items while the file's digest is
// worked out).
func BenchmarkUpdate(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		for _, oneShot := range []bool{false, true} {
			name := sizeName(n) + "/long-lived"
			if oneShot {
				name = sizeName(n) + "/one-shot"
			}
			b.Run(name, func(b *testing.B) { benchUpdate(b, n, oneShot) })
		}
	}
}

func benchUpdate(b *testing.B, n int, oneShot bool) {
	b.Helper()
	p := benchFile(b, n)
	s, err := Open(context.Background(), p, Options{MapFiles: oneShot})
	if err != nil {
		b.Fatal(err)
	}
	if oneShot {
		benchUpdateOnce(b, s) // the file as this build writes it, and its journal
	}
	b.ResetTimer()
	for b.Loop() {
		if oneShot {
			if s, err = Open(context.Background(), p, Options{MapFiles: true}); err != nil {
				b.Fatal(err)
			}
		}
		benchUpdateOnce(b, s)
	}
	if oneShot {
		return
	}
	// What the store keeps after b.N writes: the document, its
	// index and the last encoding, not the versions it wrote.
	b.StopTimer()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/1e6, "live-MB")
	runtime.KeepAlive(s)
}

// benchUpdateOnce is the write of BenchmarkUpdate: a push of a new item.
func benchUpdateOnce(b *testing.B, s noggin.Store) {
	b.Helper()
	key := "bench-" + strconv.Itoa(rand.Int())
	_, err := s.Update(context.Background(), planOf(func(d *noggin.Document) ([]noggin.Op, error) {
		return []noggin.Op{
			{Type: noggin.OpAdd, Item: &noggin.Item{Key: key, Title: "pushed", Notes: []noggin.Note{}}, ParentKey: d.Active, AtEnd: true},
			{Type: noggin.OpSetActive, Key: key},
		}, nil
	}))
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSameFile: the comparison of a noggin file with the bytes a
// long-lived store last wrote, made under the lock before every write:
// the page cache mapped and compared in place (map), or read through a
// 32 kB buffer (read, where files are not mapped).
func BenchmarkSameFile(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		p := benchFile(b, n)
		want, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		s := &fileStore{name: p, fsy: osFS{}}
		for _, mapped := range []bool{true, false} {
			name := sizeName(n) + "/map"
			if !mapped {
				name = sizeName(n) + "/read"
			}
			b.Run(name, func(b *testing.B) {
				noMap = !mapped
				defer func() { noMap = false }()
				b.SetBytes(int64(len(want)))
				var scratch []byte
				for b.Loop() {
					if !s.sameFile(want, &scratch) {
						b.Fatal("differs")
					}
				}
			})
		}
	}
}

// BenchmarkLoadLazy: a one-shot show's read of a noggin this build wrote
// (see LoadLazy): the journal's end, the file's CRC-32, the keys and parent
// keys of its items; no item decoded (a lazy read checks no keys: this
// build checked them before it wrote the file).
func BenchmarkLoadLazy(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(sizeName(n), func(b *testing.B) {
			p := benchFile(b, n)
			s, err := Open(context.Background(), p, Options{MapFiles: true})
			if err != nil {
				b.Fatal(err)
			}
			benchUpdateOnce(b, s)
			fi, _ := os.Stat(p)
			b.SetBytes(fi.Size())
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				s, err := Open(context.Background(), p, Options{MapFiles: true})
				if err != nil {
					b.Fatal(err)
				}
				doc, err := s.(LazyLoader).LoadLazy(context.Background())
				if err != nil || !doc.Items[0].Undecoded() {
					b.Fatal("not read lazily", err)
				}
			}
		})
	}
}
