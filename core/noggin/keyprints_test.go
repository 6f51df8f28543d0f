package noggin

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// printKeys are keys that share prints: "a-00000007", "b-00000007" and
// "c-00000007" have the same last eight bytes and length.
func printKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("%c-%08d", 'a'+i%3, i/3)
	}
	return keys
}

// TestKeyPrintsFind: first and last through the prints find what scans
// of the items find, for keys that share prints, duplicates, keys that
// are absent or short, from and to every place, with items past the
// prints (an Apply's appended items).
func TestKeyPrintsFind(t *testing.T) {
	keys := append(printKeys(12), "", "a", "ab", "a-00000001", "z-00000001")
	ask := append(keys, "a-00000009", "d-00000001", "zz", "b")
	for printed := range len(keys) + 1 {
		for _, key := range ask {
			checkKeyPrints(t, keys, printed, key)
		}
	}
}

// checkKeyPrints checks first and last for key, from and to every place,
// on items of keys whose first printed are printed, against plain scans.
func checkKeyPrints(t *testing.T, keys []string, printed int, key string) {
	t.Helper()
	items := make([]*Item, len(keys))
	for i, k := range keys {
		items[i] = &Item{Key: k}
	}
	kp := &keyPrints{items: items, at: make([]uint64, min(printed, len(items)))}
	for i := range kp.at {
		kp.at[i] = keyPrint(items[i].Key)
	}
	for at := range len(items) + 1 {
		want := -1
		for i := at; i < len(items); i++ {
			if items[i].Key == key {
				want = i
				break
			}
		}
		if got := kp.first(items, key, at); got != want {
			t.Fatalf("%d printed: first(%q, from %d) = %d, want %d", printed, key, at, got, want)
		}
		want = -1
		for i := at - 1; i >= 0; i-- {
			if items[i].Key == key {
				want = i
				break
			}
		}
		if got := kp.last(items, key, at); got != want {
			t.Fatalf("%d printed: last(%q, to %d) = %d, want %d", printed, key, at, got, want)
		}
	}
}

// TestKeyPrintsBuilt: a large document gets prints at its second scan for
// a key, keeps them, and gives them up when its items change; a small
// one never gets any.
func TestKeyPrintsBuilt(t *testing.T) {
	small := &Document{Items: []*Item{{Key: "a"}, {Key: "b"}}}
	for range 3 {
		if IndexOf(small, "b") != 1 || small.builtPrints() != nil {
			t.Fatal("a small document got prints")
		}
	}
	doc := &Document{}
	for _, k := range printKeys(printMin) {
		doc.Items = append(doc.Items, &Item{Key: k})
	}
	last := doc.Items[len(doc.Items)-1].Key
	if IndexOf(doc, last) != len(doc.Items)-1 || doc.builtPrints() != nil {
		t.Fatal("prints built at the first scan")
	}
	if IndexOf(doc, last) != len(doc.Items)-1 || doc.builtPrints() == nil {
		t.Fatal("no prints at the second scan")
	}
	kp := doc.builtPrints()
	if IndexOf(doc, "absent") != -1 || doc.builtPrints() != kp {
		t.Fatal("prints built again")
	}
	doc.Items = doc.Items[1:]
	if doc.builtPrints() != nil {
		t.Fatal("prints kept for other items")
	}
}

// TestApplyThroughPrints: random op lists on a large document whose keys
// share prints give, step after step, the results and errors they give
// on the same document indexed (a long-lived store's); the results of
// ops that do not move items share the prints, and IndexOf finds what a
// scan finds.
func TestApplyThroughPrints(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	keys := printKeys(printMin + 200)
	var items []*Item
	for i, k := range keys {
		it := newItem(k)
		if i > 0 && rng.Intn(4) > 0 {
			it.ParentKey = keys[rng.Intn(i)]
		}
		items = append(items, it)
	}
	doc := &Document{Items: items}
	AssumeValid(doc)
	ref := &Document{Items: items}
	AssumeValid(ref)
	Index(ref)
	derived := 0
	for step := range 300 {
		IndexOf(doc, "absent") // a scan, so that the prints are built
		pick := func() string {
			if rng.Intn(10) == 0 {
				return fmt.Sprintf("b-%08d", rng.Intn(len(keys)/3+10)) // maybe absent
			}
			return doc.Items[rng.Intn(len(doc.Items))].Key
		}
		var ops []Op
		switch r := rng.Intn(12); {
		case r < 4:
			k := fmt.Sprintf("%c-%08d", 'a'+rng.Intn(4), len(keys)+step) // "d-…" is new, the rest may be taken
			if rng.Intn(3) == 0 {
				k = pick()
			}
			ops = []Op{{Type: OpAdd, Item: newItem(k), ParentKey: pick(), AtEnd: true}, {Type: OpSetActive, Key: k}}
		case r < 6:
			ops = []Op{{Type: OpNote, Key: pick(), Note: &Note{Text: "x"}}}
		case r < 8:
			title := fmt.Sprint("t", step)
			ops = []Op{{Type: OpSet, Key: pick(), Title: &title}}
		case r < 9:
			ops = []Op{{Type: OpMove, Key: pick(), ParentKey: pick(), Position: 0}}
		case r < 10:
			ops = []Op{{Type: OpRemove, Keys: []string{pick()}}}
		default:
			ops = []Op{{Type: OpSetActive, Key: pick()}}
		}
		got, err := Apply(doc, ops)
		want, wantErr := Apply(ref, ops)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("step %d %+v: error %v, indexed %v", step, ops, err, wantErr)
		}
		if err != nil {
			continue
		}
		if !Equal(got, want) {
			t.Fatalf("step %d %+v: results differ", step, ops)
		}
		if got.builtPrints() != nil {
			derived++
		}
		for range 20 {
			k := pick()
			if i, w := IndexOf(got, k), indexOfKey(got.Items, k); i != w {
				t.Fatalf("step %d: IndexOf(%q) = %d, a scan finds %d", step, k, i, w)
			}
		}
		doc, ref = got, want
	}
	if derived < 100 {
		t.Fatalf("only %d results shared their input's prints", derived)
	}
}

// FuzzKeyPrints: for any keys (split from the input at '|': empty,
// repeated, long, any bytes), first and last through the prints find
// what plain scans find, with any number of the items printed.
func FuzzKeyPrints(f *testing.F) {
	f.Add("a-00000001|b-00000001|a-00000001||x", "a-00000001", uint8(3))
	f.Add("k|kk|kkkkkkkkk|\x00|\xff\xfe", "kk", uint8(9))
	f.Fuzz(func(t *testing.T, list, key string, printed uint8) {
		checkKeyPrints(t, strings.Split(list, "|"), int(printed), key)
	})
}
