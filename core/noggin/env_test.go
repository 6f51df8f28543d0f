package noggin

import (
	"context"
	"slices"
	"testing"
	"time"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestEngineFromEnv(t *testing.T) {
	e, err := EngineFromEnv(envOf(map[string]string{"NOGGIN_CLOCK": "2026-06-16T20:46:44.5+02:00", "NOGGIN_KEYS": "sequential"}))
	if err != nil {
		t.Fatal(err)
	}
	if got := Stamp(e.now()); got != "2026-06-16T18:46:44.500Z" {
		t.Errorf("clock = %s", got)
	}
	if _, ok := e.Keys.(SequentialKeys); !ok {
		t.Errorf("keys = %T", e.Keys)
	}
	e, err = EngineFromEnv(envOf(nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := e.Keys.(RandomKeys); !ok || e.Now == nil {
		t.Errorf("default engine %+v", e)
	}
	for _, bad := range []map[string]string{
		{"NOGGIN_CLOCK": "yesterday"},
		{"NOGGIN_CLOCK": "2026-06-16"},
		{"NOGGIN_KEYS": "seq"},
	} {
		if _, err := EngineFromEnv(envOf(bad)); err == nil {
			t.Errorf("%v accepted", bad)
		} else if e, ok := err.(*Error); !ok || e.ExitCode != 2 {
			t.Errorf("%v: error %#v", bad, err)
		}
	}
	if e := NewEngine(); e.Now == nil || e.Keys == nil {
		t.Error("NewEngine incomplete")
	}
	// A zero engine still works (real clock, random keys).
	var zero Engine
	if k := zero.newKeys(nil, zero.now(), 2); len(k) != 2 || !keyRE.MatchString(k[0]) || k[0] == k[1] {
		t.Errorf("zero engine keys %v", k)
	}
}

func TestStamp(t *testing.T) {
	loc := time.FixedZone("x", -5*3600)
	for in, want := range map[time.Time]string{
		time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC):         "2026-01-02T03:04:05.000Z",
		time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC): "2026-01-02T03:04:05.123Z",
		time.Date(2026, 1, 1, 22, 0, 0, 0, loc):             "2026-01-02T03:00:00.000Z",
	} {
		if got := Stamp(in); got != want {
			t.Errorf("Stamp(%v) = %s, want %s", in, got, want)
		}
	}
}

func TestKeys(t *testing.T) {
	now := time.Date(2026, 6, 16, 20, 46, 44, 0, time.FixedZone("x", 2*3600))
	r := RandomKeys{}.NewKeys(nil, now, 3)
	for _, k := range r {
		if !keyRE.MatchString(k) || k[:18] != "i-20260616-184644-" {
			t.Errorf("random key %q", k)
		}
	}
	doc := &Document{Items: []*Item{
		{Key: "i-20250101-000000-00000a"},
		{Key: "i-20250101-000000-0000ff"}, // the largest generated-looking suffix
		{Key: "i-20250101-000000-00FFFF"}, // uppercase: not generated
		{Key: "x-20250101-000000-fffff0"},
		{Key: "k1"},
	}}
	s := SequentialKeys{}.NewKeys(doc, now, 2)
	if s[0] != "i-20260616-184644-000100" || s[1] != "i-20260616-184644-000101" {
		t.Errorf("sequential keys %v", s)
	}
	if s := (SequentialKeys{}).NewKeys(NewDocument(), now, 1); s[0] != "i-20260616-184644-000001" {
		t.Errorf("first sequential key %v", s)
	}
	// Past ffffff the sequence goes on, and a document holding its longer
	// keys continues after them.
	past := &Document{Items: []*Item{{Key: "i-20250101-000000-fffffe"}}}
	for _, want := range []string{"i-20260616-184644-ffffff", "i-20260616-184644-1000000", "i-20260616-184644-1000001"} {
		k := SequentialKeys{}.NewKeys(past, now, 1)[0]
		if k != want {
			t.Fatalf("after %s: %s, want %s", past.Items[len(past.Items)-1].Key, k, want)
		}
		past.Items = append(past.Items, &Item{Key: k})
	}
	// Separate "processes" continue one sequence through the document.
	e := &Engine{Now: func() time.Time { return now }, Keys: SequentialKeys{}}
	st := newMem(nil)
	for i := 0; i < 3; i++ {
		if _, err := e.Push(context.Background(), st, PushOpts{Title: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	if got := keysOf(st.doc); got != "i-20260616-184644-000001 i-20260616-184644-000002 i-20260616-184644-000003" {
		t.Errorf("keys %s", got)
	}
}

// TestViewFields checks every node field of a view (docs/cli.md).
func TestViewFields(t *testing.T) {
	doc := tree("root1\n  alpha done note=n1\n  beta active\n    beta-kid\nroot2")
	doc.Items[2].CreatedAt = nil
	v := BuildView(doc, "k3")
	if v.ActivePath != "/1/2" || v.ActiveKey != "k3" || v.TargetKey != "k3" || len(v.Items) != 1 {
		t.Fatalf("view %+v", v)
	}
	root := v.Items[0]
	if root.Key != "k1" || root.ParentKey != "" || root.Path != "/1" || root.Position != 1 || !root.Expanded || len(root.Children) != 2 {
		t.Fatalf("root %+v", root)
	}
	alpha, beta := root.Children[0], root.Children[1]
	if alpha.ParentKey != "k1" || alpha.Path != "/1/1" || alpha.Position != 1 || !alpha.Done ||
		len(alpha.Notes) != 1 || alpha.Notes[0].Text != "n1" || alpha.Expanded || alpha.Children != nil || *alpha.CreatedAt != "2026-01-01T00:00:00.000Z" {
		t.Errorf("alpha %+v", alpha)
	}
	if beta.Position != 2 || beta.CreatedAt != nil || !beta.Expanded || len(beta.Children) != 1 || beta.Children[0].Path != "/1/2/1" {
		t.Errorf("beta %+v", beta)
	}
	if BuildView(doc, "nope") != nil {
		t.Error("view of a missing item")
	}
}

// TestRandomKeysDrawAgain: a random key that the document already has, or
// that the same call already gave, is drawn again (an add in the same
// second as an item with the same 3 random bytes failed with invalid-op).
func TestRandomKeysDrawAgain(t *testing.T) {
	now := time.Date(2026, 12, 3, 23, 58, 14, 0, time.UTC)
	draws := [][]byte{
		{0x39, 0x77, 0x56, 0x39, 0x77, 0x57, 0x39, 0x77, 0x57}, // the first is taken; the third repeats the second
		{0x39, 0x77, 0x56}, // taken again
		{0x00, 0x00, 0x01},
		{0x00, 0x00, 0x02},
	}
	defer func(f func([]byte)) { randomBytes = f }(randomBytes)
	randomBytes = func(b []byte) {
		if len(draws) == 0 || len(draws[0]) != len(b) {
			t.Fatalf("unexpected draw of %d bytes", len(b))
		}
		copy(b, draws[0])
		draws = draws[1:]
	}
	doc := &Document{Items: []*Item{{Key: "i-20261203-235814-397756"}}}
	got := RandomKeys{}.NewKeys(doc, now, 3)
	want := []string{"i-20261203-235814-000001", "i-20261203-235814-397757", "i-20261203-235814-000002"}
	if !slices.Equal(got, want) || len(draws) != 0 {
		t.Fatalf("keys %v, want %v (%d draws left)", got, want, len(draws))
	}
}
