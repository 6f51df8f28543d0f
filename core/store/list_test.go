package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestCacheList(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{
		"a.yaml", "b.JSON", "c.yml", "notes.txt", "a.yaml.history", "a.yaml.tmp-1-2", ".hidden.yaml",
		"team/x.yaml", ".git/config.yaml", "deep/er/y.yaml",
	} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, "a.yaml.lock"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(root, "out.yaml")); err != nil {
		t.Fatal(err)
	}
	all := []string{"a.yaml", "b.JSON", "c.yml", "deep/er/y.yaml", "team/x.yaml"}
	for _, tc := range []struct {
		name      string
		max       int
		want      []string
		truncated bool
	}{
		{"every noggin file, sorted, without hidden, history, temporary files or links", 1000, all, false},
		{"at most max names, truncated said", 2, []string{"a.yaml", "b.JSON"}, true},
		{"exactly max names is not truncated", len(all), all, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, truncated, err := NewCache(Options{Root: root}).List(context.Background(), tc.max)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) || truncated != tc.truncated {
				t.Errorf("List = %q, %v; want %q, %v", got, truncated, tc.want, tc.truncated)
			}
		})
	}
	if _, _, err := NewCache(Options{}).List(context.Background(), 10); err == nil {
		t.Error("a cache without a root listed files")
	}
}

// TestCacheListLargeTree: a root holding a large tree (a home directory,
// say) answers after listVisits entries, truncated, not after the walk.
func TestCacheListLargeTree(t *testing.T) {
	defer func(n int) { listVisits = n }(listVisits)
	listVisits = 60
	root := t.TempDir()
	for d := range 3 {
		dir := filepath.Join(root, fmt.Sprintf("d%02d", d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range listVisits / 2 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.txt", f)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(root, "z.yaml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	names, truncated, err := NewCache(Options{Root: root}).List(context.Background(), 1000)
	if err != nil || !truncated || len(names) != 0 {
		t.Fatalf("List = %q, %v, %v; want nothing found yet, truncated", names, truncated, err)
	}
}
