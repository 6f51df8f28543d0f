package noggin

import "testing"

// TestResolveWorkedExamples covers every worked example of docs/paths.md
// (tree F2, active /1/2) and edge cases 146–159.
func TestResolveWorkedExamples(t *testing.T) {
	doc := tree(F2)
	tests := []struct {
		name, active, path, want, err string
	}{
		{"abs-1", "", "/1", "/1", ""},
		{"abs-1-2", "", "/1/2", "/1/2", ""},
		{"abs-1-2-1", "", "/1/2/1", "/1/2/1", ""},
		{"abs-2", "", "/2", "/2", ""},
		{"case-154/trailing", "", "/1/", "/1", ""},
		{"case-154/zeros", "", "/01/002", "/1/2", ""},
		{"dot", "k4", ".", "/1/2", ""},
		{"dot-slash", "k4", "./", "/1/2", ""},
		{"dotdot", "k4", "..", "/1", ""},
		{"case-148/minus", "k4", "-", "/1/1", ""},
		{"case-148/plus", "k4", "+", "/1/3", ""},
		{"case-146/bare", "k4", "1", "/1/2/1", ""},
		{"dot-1", "k4", "./1", "/1/2/1", ""},
		{"case-146/zero", "k4", "01", "/1/2/1", ""},
		{"dot-slash-slash", "k4", ".//1", "/1/2/1", ""},
		{"case-147", "k4", "2", "", "path not found: 2 (no position 2 under '/1/2')"},
		{"case-150/a", "k4", "../1", "/1/1", ""},
		{"case-150/b", "k4", "..//1", "/1/1", ""},
		{"case-150/c", "k4", ".././1", "/1/1", ""},
		{"case-149/minus", "k4", "-/1", "/1/1/1", ""},
		{"case-149/plus", "k4", "+/1", "", "path not found: +/1 (no position 1 under '/1/3')"},
		{"minus-deep", "k4", "-/1/1", "", "path not found: -/1/1 (no position 1 under '/1/1/1')"},
		{"case-149/trailing", "k4", "+/", "", "path '+/': trailing slash with no descendant"},
		{"case-152", "k4", "../..", "", "path '../..': cannot go above root"},
		{"above-2", "k4", "../../", "", "path '../../': cannot go above root"},
		{"above-3", "k4", "../../..", "", "path '../../..': cannot go above root"},
		{"abs-missing-child", "k4", "/1/9", "", "path not found: /1/9 (no position 9 under '/1')"},
		{"abs-missing-root", "k4", "/9", "", "path not found: /9 (no position 9 at root)"},
		{"case-151/abc", "k4", "/1/abc", "", "path '/1/abc': segment 'abc' is not a 1-based position"},
		{"case-151/zero", "k4", "/1/0", "", "path '/1/0': segment '0' is not a 1-based position"},
		{"case-053", "k4", "/", "", "path '/': empty absolute path"},
		{"case-153", "k4", "//", "", "path '//' is empty"},
		{"triple-slash", "k4", "///", "", "path '///' is empty"},
		{"empty", "k4", "", "", "path: empty path"},
		{"case-155/dot-dotdot", "k4", "./..", "", "path './..': segment '..' is not a 1-based position"},
		{"case-155/space", "k4", " /1", "", "path ' /1': segment ' ' is not a 1-based position"},
		{"dotdot-minus", "k4", "../-", "", "path '../-': segment '-' is not a 1-based position"},
		{"plus-one", "k4", "+1", "", "path '+1': segment '+1' is not a 1-based position"},
		{"minus-one", "k4", "-1", "", "path '-1': segment '-1' is not a 1-based position"},
		{"case-159", "k5", "../../1", "/1/1", ""},
		{"zero-padded-missing", "", "/009", "", "path not found: /009 (no position 9 at root)"},
		{"huge", "", "/99999999999999999999999", "", "path not found: /99999999999999999999999 (no position 99999999999999999999999 at root)"},
		// No active item: relative forms fail, absolute ones work.
		{"case-157", "", ".", "", "path '.': no active item"},
		{"noactive-dotdot", "", "..", "", "path '..': no active item"},
		{"noactive-minus", "", "-", "", "path '-': no active item"},
		{"noactive-plus", "", "+", "", "path '+': no active item"},
		{"case-055", "", "1", "", "path '1' is relative but no active item"},
		{"noactive-dot1", "", "./1", "", "path './1' is relative but no active item"},
		{"noactive-minus1", "", "-/1", "", "path '-/1' is relative but no active item"},
		{"dangling-active", "ghost", ".", "", "path '.': no active item"},
		// Active is a root (/1).
		{"case-156", "k1", "..", "", "path '..': active item has no parent"},
		{"root-minus", "k1", "-", "", "path '-': active item has no previous sibling"},
		{"root-plus", "k1", "+", "/2", ""},
		{"last-root-plus", "k7", "+", "", "path '+': active item has no next sibling"},
		{"minus-slash-nosib", "k1", "-/1", "", "path '-/1': active item has no previous sibling"},
		{"minus-slash-empty-nosib", "k1", "-/", "", "path '-/': active item has no previous sibling"},
		// The key form names an item wherever it is, active item or not.
		{"key", "", "@k4", "/1/2", ""},
		{"key-active-elsewhere", "k7", "@k2", "/1/1", ""},
		{"key-child", "", "@k4/1", "/1/2/1", ""},
		{"key-grandchild", "k4", "@k1/1/1", "/1/1/1", ""},
		{"key-zeros", "", "@k1/03", "/1/3", ""},
		{"key-double-slash", "", "@k1//2", "/1/2", ""},
		{"key-missing", "k4", "@nope", "", "path not found: @nope (no item with key 'nope')"},
		{"key-empty", "k4", "@", "", "path '@': no key after '@'"},
		{"key-empty-slash", "k4", "@/1", "", "path '@/1': no key after '@'"},
		{"key-trailing", "", "@k4/", "", "path '@k4/': trailing slash with no descendant"},
		{"key-missing-child", "", "@k5/1", "", "path not found: @k5/1 (no position 1 under '/1/2/1')"},
		{"key-bad-segment", "", "@k4/x", "", "path '@k4/x': segment 'x' is not a 1-based position"},
		{"key-relative-segment", "", "@k4/..", "", "path '@k4/..': segment '..' is not a 1-based position"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			it, err := Resolve(doc, tc.active, tc.path)
			if tc.err != "" {
				wantErr(t, err, CodePathNotFound, 1, tc.err, F("path", tc.path), F("detail", tc.err))
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q) error: %v", tc.path, err)
			}
			if got := PathOf(doc, it.Key); got != tc.want {
				t.Fatalf("Resolve(%q) = %s, want %s", tc.path, got, tc.want)
			}
		})
	}
}

func TestResolveCase158(t *testing.T) {
	doc := tree("r\n  only active")
	for _, tc := range []struct{ path, msg string }{
		{"-", "path '-': active item has no previous sibling"},
		{"+", "path '+': active item has no next sibling"},
	} {
		t.Run("case-158/"+tc.path, func(t *testing.T) {
			_, err := Resolve(doc, doc.Active, tc.path)
			wantErr(t, err, CodePathNotFound, 1, tc.msg, F("path", tc.path), F("detail", tc.msg))
		})
	}
}

func TestPathOf(t *testing.T) {
	doc := tree(F2)
	want := map[string]string{"k1": "/1", "k2": "/1/1", "k3": "/1/1/1", "k4": "/1/2", "k5": "/1/2/1", "k6": "/1/3", "k7": "/2", "ghost": ""}
	for k, p := range want {
		if got := PathOf(doc, k); got != p {
			t.Errorf("PathOf(%s) = %q, want %q", k, got, p)
		}
	}
	// Orphans (dangling parent, cycle) have no path.
	orphan := tree("a\nb")
	orphan.Items[1].ParentKey = "missing"
	if got := PathOf(orphan, "k2"); got != "" {
		t.Errorf("orphan path = %q", got)
	}
	orphan.Items[1].ParentKey = "k2"
	if got := PathOf(orphan, "k2"); got != "" {
		t.Errorf("self-parent path = %q", got)
	}
}

// TestResolveLargeTreeIndex exercises the switch to the full index.
func TestResolveLargeTreeIndex(t *testing.T) {
	doc := tree(F2)
	x := newIndex(doc)
	for i := 0; i < 3; i++ {
		for _, it := range doc.Items {
			if got := x.item(it.Key); got != it {
				t.Fatalf("item(%s) = %v", it.Key, got)
			}
			_ = x.children(it.Key)
		}
	}
	if x.item("nope") != nil {
		t.Fatal("item(nope) != nil")
	}
	if got := len(x.children("k1")); got != 3 {
		t.Fatalf("children(k1) = %d", got)
	}
}
