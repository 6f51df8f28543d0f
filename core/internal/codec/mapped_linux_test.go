package codec

import (
	"bufio"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/noggin-go/noggin/core/internal/mmap"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// mappedFile writes text to a file and maps it (lazily), for the test.
func mappedFile(t *testing.T, text []byte) (string, []byte) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "n.yaml")
	if err := os.WriteFile(p, text, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, ok := mmap.Map(f, len(text))
	if !ok {
		t.Skip("the file cannot be mapped")
	}
	t.Cleanup(func() { mmap.Unmap(m) })
	return p, m
}

// residentKB is the resident size, in kB, of this process's mappings of
// the file at path (/proc/self/smaps).
func residentKB(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps")
	}
	defer f.Close()
	kb, in := 0, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 5 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			in = strings.Join(fields[5:], " ") == path
			continue
		}
		if in && len(fields) == 3 && fields[0] == "Rss:" {
			n, _ := strconv.Atoi(fields[1])
			kb += n
		}
	}
	return kb
}

// TestDecodeMappedNeverHoldsTheFile: a lazy read of a mapped 12 MB noggin
// works out its CRC-32 and reads it in one pass, dropping each stretch
// once both are done with it: at no time is half of the file in memory
// (about a third at most, on a loaded machine; without the drops, all of
// it), and the CRC is the file's.
func TestDecodeMappedNeverHoldsTheFile(t *testing.T) {
	text := EncodeYAML(sampledoc.Doc(30000, 1))
	p, m := mappedFile(t, text)
	var mu sync.Mutex
	peak := 0
	readPassed = func() {
		kb := residentKB(t, p)
		mu.Lock()
		peak = max(peak, kb)
		mu.Unlock()
	}
	defer func() { readPassed = nil }()
	var sum uint32
	doc, src, err := Decode(m, Options{Mapped: true, Lazy: true, CRC32: &sum})
	if err != nil || src == nil || len(doc.Items) != 30000 {
		t.Fatalf("%v, %v, %d items", err, src, len(doc.Items))
	}
	if want := crc32.ChecksumIEEE(text); sum != want {
		t.Errorf("CRC-32 %08x, want %08x", sum, want)
	}
	if bound := len(text) / 1024 / 2; peak == 0 || peak > bound {
		t.Fatalf("%d kB of the %d kB file mapped in at once", peak, len(text)/1024)
	}
}

// TestDecodeMappedCutShort: a mapped file cut short under the read is
// ErrCutShort, whatever the read (lazy, with a Source, plain); bytes of
// another layout are ErrNotLazy for a lazy read.
func TestDecodeMappedCutShort(t *testing.T) {
	text := EncodeYAML(sampledoc.Doc(3000, 1))
	for _, o := range []Options{{Mapped: true}, {Mapped: true, Source: true}, {Mapped: true, Lazy: true}} {
		p, m := mappedFile(t, text)
		if err := os.Truncate(p, int64(os.Getpagesize())); err != nil {
			t.Fatal(err)
		}
		if _, _, err := Decode(m, o); !errors.Is(err, ErrCutShort) {
			t.Errorf("%+v: %v, want ErrCutShort", o, err)
		}
	}
	if _, _, err := Decode([]byte("schemaVersion: 1\nactive: null\nitems:\n- key: a\n  title: t\n"), Options{Lazy: true}); !errors.Is(err, ErrNotLazy) {
		t.Errorf("another layout, lazily: %v, want ErrNotLazy", err)
	}
}
