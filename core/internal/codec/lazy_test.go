package codec

import (
	"bytes"
	"errors"
	"math/rand"
	"reflect"
	"testing"

	"github.com/noggin-go/noggin/core/sampledoc"
)

var errLazyTest = errors.New("changed")

func noGuard(f func()) bool { f(); return true }

// checkLazy reads text lazily and checks it against DecodeYAML: the same
// top level, keys and parent keys before any decode, and every item the
// same once decoded. It reports whether the lazy read took text.
func checkLazy(t *testing.T, text []byte) bool {
	t.Helper()
	took := checkLazySplit(t, text, parallelMin)
	if checkLazySplit(t, text, 32) != took {
		t.Fatalf("read lazily in one pass: %v, in two halves: %v\n%s", took, !took, text)
	}
	return took
}

// checkLazySplit is checkLazy reading items lists of splitMin bytes or
// more in two halves.
func checkLazySplit(t *testing.T, text []byte, splitMin int) bool {
	t.Helper()
	want, err := DecodeYAML(text)
	if err != nil {
		t.Fatalf("DecodeYAML: %v\n%s", err, text)
	}
	spans := &spanList{}
	got, ok := decodeLazySpans(text, splitMin, spans, nil, noGuard, errLazyTest)
	if !ok {
		return false
	}
	if spans.n != len(got.Items) {
		t.Fatalf("%d spans for %d items", spans.n, len(got.Items))
	}
	if got.Active != want.Active || !reflect.DeepEqual(got.Order, want.Order) || !reflect.DeepEqual(got.Extra, want.Extra) {
		t.Fatalf("top level: got %q %q %v, want %q %q %v\n%s", got.Active, got.Order, got.Extra, want.Active, want.Order, want.Extra, text)
	}
	if len(got.Items) != len(want.Items) {
		t.Fatalf("%d items, want %d\n%s", len(got.Items), len(want.Items), text)
	}
	for i, it := range got.Items {
		w := want.Items[i]
		if !it.Undecoded() || it.Key != w.Key || it.ParentKey != w.ParentKey {
			t.Fatalf("item %d before decoding: %q %q (undecoded %v), want %q %q\n%s", i, it.Key, it.ParentKey, it.Undecoded(), w.Key, w.ParentKey, text)
		}
	}
	for _, i := range rand.New(rand.NewSource(int64(len(text)))).Perm(len(got.Items)) { // any order
		it := got.Items[i]
		if err := it.Decode(); err != nil {
			t.Fatalf("item %d: %v\n%s", i, err, text)
		}
		if !reflect.DeepEqual(it, want.Items[i]) {
			t.Fatalf("item %d decoded as %+v, want %+v\n%s", i, it, want.Items[i], text)
		}
	}
	for i, it := range got.Items { // each item's span is its encoding (a write copies it)
		if sp, want := text[spans.at(i).start:spans.at(i).end], appendItem(nil, it); !bytes.Equal(sp, want) {
			t.Fatalf("item %d: span %q, encoded %q", i, sp, want)
		}
	}
	return true
}

// TestDecodeYAMLLazy: every document the fast reader takes, random and
// hostile, reads lazily as DecodeYAML reads it.
func TestDecodeYAMLLazy(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	took := 0
	for range 1500 {
		text := EncodeYAML(spliceDoc(r))
		ok := checkLazy(t, text)
		if _, fast := decodeFastSplit(text, parallelMin); fast && !ok {
			t.Fatalf("the fast reader takes it, the lazy read does not:\n%s", text)
		}
		if ok {
			took++
		}
	}
	if took < 500 {
		t.Fatalf("only %d documents read lazily", took)
	}
	for _, n := range []int{1, 10, 3000} {
		if !checkLazy(t, EncodeYAML(sampledoc.Doc(n, 2))) {
			t.Fatalf("sampledoc %d not read lazily", n)
		}
	}
}

// FuzzLazy: a random hostile document, encoded, reads lazily as DecodeYAML
// reads it; and any input the lazy read and the fast reader both take,
// they read alike (the lazy read never panics, whatever it is given).
func FuzzLazy(f *testing.F) {
	f.Add(int64(1), []byte("schemaVersion: 1\nactive: a\nitems:\n  - key: a\n    parentKey: null\n    title: x\n    done: false\n    notes: []\n"))
	f.Add(int64(2), []byte("items:\n  - parentKey: b\n    notes:\n      - timestamp: t\n        text: |\n          - key: c\n    key: a\nactive: null\nschemaVersion: 1\n"))
	f.Add(int64(3), []byte("schemaVersion: 1\nactive: null\nitems:\n  - key: 'a'\n# c\n  - key: \"b\"\n    notes: []\n"))
	f.Fuzz(func(t *testing.T, seed int64, data []byte) {
		checkLazy(t, EncodeYAML(spliceDoc(rand.New(rand.NewSource(seed)))))
		lazy, ok := decodeLazy(data, 32, nil, noGuard, errLazyTest)
		if !ok {
			return
		}
		for _, it := range lazy.Items {
			_ = it.Decode() // may fail: data need not be this encoder's
		}
		full, fast := decodeFastSplit(data, parallelMin)
		if !fast {
			return
		}
		lazy, _ = decodeLazy(data, 32, nil, noGuard, errLazyTest)
		if len(lazy.Items) != len(full.Items) || lazy.Active != full.Active || !reflect.DeepEqual(lazy.Order, full.Order) {
			t.Fatalf("lazy %d items, active %q, order %q; fast %d, %q, %q\n%q", len(lazy.Items), lazy.Active, lazy.Order, len(full.Items), full.Active, full.Order, data)
		}
		for i, it := range lazy.Items {
			if err := it.Decode(); err != nil || !reflect.DeepEqual(it, full.Items[i]) {
				t.Fatalf("item %d: %v, %+v; fast %+v\n%q", i, err, it, full.Items[i], data)
			}
		}
	})
}
