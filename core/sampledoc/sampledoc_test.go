package sampledoc

import (
	"reflect"
	"testing"
)

func TestDocShape(t *testing.T) {
	for _, n := range []int{0, 1, 50, 1000, 10000} {
		d := Doc(n, 42)
		if len(d.Items) != n {
			t.Fatalf("n=%d: %d items", n, len(d.Items))
		}
		depth := map[string]int{}
		done, maxDepth, notes := 0, 0, 0
		for _, it := range d.Items {
			if _, dup := depth[it.Key]; dup {
				t.Fatalf("duplicate key %s", it.Key)
			}
			dp := 1
			if it.ParentKey != "" {
				pd, ok := depth[it.ParentKey]
				if !ok {
					t.Fatalf("parent %s not before child", it.ParentKey)
				}
				dp = pd + 1
			}
			depth[it.Key] = dp
			maxDepth = max(maxDepth, dp)
			if it.Done {
				done++
			}
			notes += len(it.Notes)
			if len(it.Notes) > 3 {
				t.Fatalf("%d notes", len(it.Notes))
			}
			if it.Done && it.Notes[len(it.Notes)-1].Text != "closed" {
				t.Fatalf("done item without close note")
			}
		}
		if maxDepth > 6 {
			t.Errorf("n=%d: depth %d", n, maxDepth)
		}
		if n >= 1000 {
			if f := float64(done) / float64(n); f < 0.25 || f > 0.35 {
				t.Errorf("n=%d: done fraction %.2f", n, f)
			}
			if maxDepth < 5 {
				t.Errorf("n=%d: max depth only %d", n, maxDepth)
			}
			t.Logf("n=%d depth=%d done=%d notes=%d", n, maxDepth, done, notes)
		}
	}
}

func TestDocDeterministic(t *testing.T) {
	if !reflect.DeepEqual(Doc(500, 7), Doc(500, 7)) {
		t.Fatal("same seed, different documents")
	}
	if reflect.DeepEqual(Doc(500, 7), Doc(500, 8)) {
		t.Fatal("different seeds, same document")
	}
}
