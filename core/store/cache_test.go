package store

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
)

func TestCache(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.yaml")
	c := NewCache(Options{})
	a, err := c.Open(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Open(context.Background(), "  "+p+"\n")
	if err != nil || b != a {
		t.Fatalf("trimmed location gave %v, %v; want the cached store", b, err)
	}
	if a.Describe() != p {
		t.Errorf("Describe = %q", a.Describe())
	}
	// Concurrent first opens share one store.
	q := filepath.Join(dir, "y.yaml")
	var wg sync.WaitGroup
	got := make([]noggin.Store, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = c.Open(context.Background(), q)
		}()
	}
	wg.Wait()
	for _, s := range got {
		if s == nil || s != got[0] {
			t.Fatalf("concurrent opens gave different stores")
		}
	}
	// A failed open is not cached.
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("schemaVersion: 9\nactive: null\nitems: []\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Open(context.Background(), bad); errCode(err) != noggin.CodeUnsupportedSchema {
		t.Fatalf("bad file: %v", err)
	}
	if err := os.WriteFile(bad, []byte("schemaVersion: 1\nactive: null\nitems: []\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Open(context.Background(), bad); err != nil {
		t.Fatalf("after repair: %v", err)
	}
	if _, err := c.Open(context.Background(), "memory://x"); errCode(err) != noggin.CodeNoProvider {
		t.Errorf("memory without provider: %v", err)
	}
}

func TestMemoryProvider(t *testing.T) {
	o := Options{Memory: true}
	label := strings.ReplaceAll(t.TempDir(), "/", "_") // unique per run: the registry is process-wide
	a := mustOpen(t, "memory://"+label, o)
	b := mustOpen(t, "MEMORY://"+label, o)
	if a.Describe() != "memory://"+label {
		t.Errorf("Describe = %q", a.Describe())
	}
	if d := mustOpen(t, "memory://", o).Describe(); d != "memory://in-memory" {
		t.Errorf("Describe(memory://) = %q", d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := b.Watch(ctx)
	mustAdd(t, a, "k1") // shared: b sees it
	doc, err := b.Load(context.Background())
	if err != nil || !slices.Equal(keysOf(doc), []string{"k1"}) {
		t.Fatalf("b.Load = %v, %v", doc, err)
	}
	// No-op writes fire nothing; the next event is k2.
	if _, err := a.Update(context.Background(), planOf(func(*noggin.Document) ([]noggin.Op, error) {
		return []noggin.Op{{Type: noggin.OpSetActive}}, nil
	})); err != nil {
		t.Fatal(err)
	}
	mustAdd(t, b, "k2")
	var got []string // in one event or two (merged while not taken)
	for len(got) < 2 {
		got = append(got, summary(next(t, w).Changes)...)
	}
	if want := []string{"added:k1", "added:k2"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("changes = %v, want %v", got, want)
	}
	// Failed applies change nothing.
	if err := addItem(a, "k1"); errCode(err) != noggin.CodeInvalidOp {
		t.Errorf("duplicate add: %v", err)
	}
	// Independent instances.
	m := NewMemory("memory://own", nil)
	if doc, _ := m.Load(context.Background()); len(doc.Items) != 0 || m.Describe() != "memory://own" {
		t.Errorf("NewMemory: %v", doc)
	}
}
