package noggin

import "sync/atomic"

// Key prints: a large document without a full index (a one-shot verb on a
// lazy read) is searched for keys by scans, about ten per push on the
// document and the documents Apply makes from it. Each scan reads every
// item's key, a pointer chase over all the items that misses the cache on
// a large noggin: 1.6–4.8 ms a scan at 100k items in the CLI. A key print
// is eight bytes per item in one array, so a scan reads that array and
// looks at an item only where its print matches: 0.09–0.11 ms against
// 0.38–0.46 ms for a scan of 100k items already in the cache
// (BenchmarkIndexOfKey), and the CLI's read and engine for a push on
// 100k items take 61 ms instead of 71 ms (medians of 21, interleaved).

// printMin is the number of items from which a document's key scans go
// through its key prints.
const printMin = spineMin

// printTail is the most items a document made by Apply may have past the
// prints it shares with its input; a longer tail is printed anew.
const printTail = 256

// keyPrints holds keyPrint(items[i].Key) for the first len(at) items of a
// document's items; the items after those (added by Apply) are scanned
// directly.
type keyPrints struct {
	items []*Item
	at    []uint64
}

// keyPrint is a fingerprint of key: its last eight bytes, where generated
// keys differ (with the length of a shorter key). Different keys may share
// a print, so a match is checked against the key itself.
func keyPrint(key string) uint64 {
	n := len(key)
	p := uint64(n)
	for i := max(0, n-8); i < n; i++ {
		p = p<<8 ^ uint64(key[i])
	}
	return p
}

// prints returns the key prints of doc, or nil for a small document or
// one scanned for a key only once so far (building the prints costs about
// one scan). doc must not change afterwards (see Document).
func (doc *Document) prints() *keyPrints {
	if doc == nil || len(doc.Items) < printMin {
		return nil
	}
	if kp := doc.builtPrints(); kp != nil {
		return kp
	}
	if atomic.AddInt32(&doc.memo.printAsks, 1) < 2 {
		return nil
	}
	kp := &keyPrints{items: doc.Items, at: make([]uint64, len(doc.Items))}
	for i, it := range doc.Items {
		kp.at[i] = keyPrint(it.Key)
	}
	doc.memo.prints.Store(kp)
	return kp
}

// builtPrints returns the key prints of doc if they are built, or nil.
func (doc *Document) builtPrints() *keyPrints {
	if kp, _ := doc.memo.prints.Load().(*keyPrints); kp != nil && sameItems(kp.items, doc.Items) {
		return kp
	}
	return nil
}

// derivePrints gives out, made by Apply from a document whose prints are
// kp without moving its items (only clones in place, which keep their
// keys, and items appended), kp's prints for its first items.
func derivePrints(kp *keyPrints, out *Document) {
	if kp != nil && len(out.Items) >= len(kp.at) && len(out.Items)-len(kp.at) <= printTail {
		out.memo.prints.Store(&keyPrints{items: out.Items, at: kp.at})
	}
}

// first returns the index of the first item with key in items[from:], or
// -1. items are the items kp was built for, or a list that holds items
// with the same keys at the same places for kp's length (see
// derivePrints).
func (kp *keyPrints) first(items []*Item, key string, from int) int {
	p := keyPrint(key)
	n := min(len(kp.at), len(items))
	for i := from; i < n; i++ {
		if kp.at[i] == p && items[i].Key == key {
			return i
		}
	}
	if i := indexOfKey(items[max(from, n):], key); i >= 0 {
		return max(from, n) + i
	}
	return -1
}

// last returns the index of the last item with key in items[:to], or -1
// (see first).
func (kp *keyPrints) last(items []*Item, key string, to int) int {
	n := min(len(kp.at), to)
	if i := lastIndexOfKey(items[n:to], key); i >= 0 {
		return n + i
	}
	p := keyPrint(key)
	for i := n - 1; i >= 0; i-- {
		if kp.at[i] == p && items[i].Key == key {
			return i
		}
	}
	return -1
}

// firstKey is kp.first, or a scan of items when kp is nil.
func firstKey(kp *keyPrints, items []*Item, key string, from int) int {
	if kp != nil {
		return kp.first(items, key, from)
	}
	if i := indexOfKey(items[from:], key); i >= 0 {
		return from + i
	}
	return -1
}

// lastKey is kp.last, or a scan of items when kp is nil.
func lastKey(kp *keyPrints, items []*Item, key string, to int) int {
	if kp != nil {
		return kp.last(items, key, to)
	}
	return lastIndexOfKey(items[:to], key)
}
