package noggin

import "testing"

// TestForeignFields: an item has foreign fields when it has a field order
// of its own or unknown fields; an empty Foreign is none, and the readers
// of a Foreign take a nil one.
func TestForeignFields(t *testing.T) {
	for _, c := range []struct {
		name  string
		f     *Foreign
		has   bool
		order int
		extra int
	}{
		{"none", nil, false, 0, 0},
		{"empty", &Foreign{}, false, 0, 0},
		{"empty extra", &Foreign{Extra: []Field{}}, false, 0, 0},
		{"order", &Foreign{Order: []string{"title", "key"}}, true, 2, 0},
		{"extra", &Foreign{Extra: []Field{F("x", 1)}}, true, 0, 1},
	} {
		it := &Item{Key: "k", Foreign: c.f}
		if got := it.HasForeignFields(); got != c.has {
			t.Errorf("%s: HasForeignFields %v, want %v", c.name, got, c.has)
		}
		if len(it.FieldOrder()) != c.order || len(it.ExtraFields()) != c.extra {
			t.Errorf("%s: order %v, extra %v", c.name, it.FieldOrder(), it.ExtraFields())
		}
	}
}
