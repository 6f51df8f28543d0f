package noggin

import (
	"strconv"
	"strings"
)

// ancestors returns the ancestors of it, root first. The walk stops at a
// missing parent and is bounded by the item count (cycles).
func (x *index) ancestors(it *Item) []*Item {
	var chain []*Item
	for n := 0; it.ParentKey != "" && n <= len(x.items); n++ {
		p := x.item(it.ParentKey)
		if p == nil {
			break
		}
		chain = append(chain, p)
		it = p
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return chain
}

// path returns the absolute path of it, or "" when its parent chain does
// not reach a root.
func (x *index) path(it *Item) string {
	if it == nil {
		return ""
	}
	var parts []int
	for n := 0; n <= len(x.items); n++ {
		p := x.position(it)
		if p == 0 {
			return ""
		}
		parts = append(parts, p)
		if it.ParentKey == "" {
			var b strings.Builder
			for i := len(parts) - 1; i >= 0; i-- {
				b.WriteByte('/')
				b.WriteString(strconv.Itoa(parts[i]))
			}
			return b.String()
		}
		if it = x.item(it.ParentKey); it == nil {
			return ""
		}
	}
	return ""
}

// isDescendant reports whether candidate is a strict descendant of root.
func (x *index) isDescendant(candidate, root *Item) bool {
	it := candidate
	for n := 0; it != nil && it.ParentKey != "" && n <= len(x.items); n++ {
		if it.ParentKey == root.Key {
			return true
		}
		it = x.item(it.ParentKey)
	}
	return false
}

// descendants returns every descendant of it, depth-first pre-order.
func (x *index) descendants(it *Item) []*Item {
	var out []*Item
	stack := []*Item{it}
	seen := 0
	for len(stack) > 0 && seen <= len(x.items) {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if top != it {
			out = append(out, top)
		}
		seen++
		kids := x.children(top.Key)
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
	return out
}

// Resolve resolves a path against doc with active as the active item key
// ("" = none). Failures are path-not-found errors.
func Resolve(doc *Document, active, path string) (*Item, error) {
	it, msg := newIndex(doc).resolve(active, path)
	if msg != "" {
		return nil, NewError(CodePathNotFound, F("path", path), F("detail", msg))
	}
	return it, nil
}

// PathOf returns the absolute path of the item with key, or "" if it has none.
func PathOf(doc *Document, key string) string {
	x := newIndex(doc)
	return x.path(x.item(key))
}

// resolve implements the path grammar of docs/paths.md. On failure it
// returns the resolver message (the error's detail).
func (x *index) resolve(activeKey, p string) (*Item, string) {
	if p == "" {
		return nil, "path: empty path"
	}
	if strings.HasPrefix(p, "@") {
		return x.keyPath(p)
	}
	active := x.item(activeKey)
	if strings.HasPrefix(p, "/") {
		if p == "/" {
			return nil, "path '/': empty absolute path"
		}
		return x.walk(nil, p[1:], p)
	}
	switch p {
	case ".":
		if active == nil {
			return nil, "path '.': no active item"
		}
		return active, ""
	case "..":
		if active == nil {
			return nil, "path '..': no active item"
		}
		parent := x.item(active.ParentKey)
		if parent == nil {
			return nil, "path '..': active item has no parent"
		}
		return parent, ""
	case "-", "+":
		if active == nil {
			return nil, "path '" + p + "': no active item"
		}
		return x.sibling(active, p)
	}
	if strings.HasPrefix(p, "-/") || strings.HasPrefix(p, "+/") {
		if active == nil {
			return nil, "path '" + p + "' is relative but no active item"
		}
		sib, msg := x.sibling(active, p)
		if msg != "" {
			return nil, msg
		}
		if p[2:] == "" {
			return nil, "path '" + p + "': trailing slash with no descendant"
		}
		return x.walk(sib, p[2:], p)
	}
	if active == nil {
		return nil, "path '" + p + "' is relative but no active item"
	}
	base, rest := active, p
	for rest == ".." || strings.HasPrefix(rest, "../") {
		if base.ParentKey == "" {
			return nil, "path '" + p + "': cannot go above root"
		}
		base = x.item(base.ParentKey)
		if base == nil {
			return nil, "path '" + p + "': cannot go above root"
		}
		if rest == ".." {
			rest = ""
		} else {
			rest = rest[3:]
		}
	}
	rest = strings.TrimPrefix(rest, "./")
	if rest == "" {
		return base, ""
	}
	return x.walk(base, rest, p)
}

// NamesItem reports whether word is the key form of an item of doc
// ("@KEY" or "@KEY/…" with KEY the key of one of its items): the CLI's
// note takes such a first word as its path, while any other word that
// starts with "@" stays text, as the original reads it.
func NamesItem(doc *Document, word string) bool {
	if !strings.HasPrefix(word, "@") || doc == nil {
		return false
	}
	key, _, _ := strings.Cut(word[1:], "/")
	return key != "" && newIndex(doc).item(key) != nil
}

// keyPath resolves the key form "@KEY" or "@KEY/2/1" (positions below the
// item with key KEY), which names an item wherever it has moved. The
// original rejects it (a relative path whose segment is not a position).
func (x *index) keyPath(p string) (*Item, string) {
	key, rest, below := strings.Cut(p[1:], "/")
	if key == "" {
		return nil, "path '" + p + "': no key after '@'"
	}
	it := x.item(key)
	if it == nil {
		return nil, "path not found: " + p + " (no item with key '" + key + "')"
	}
	if !below {
		return it, ""
	}
	if rest == "" {
		return nil, "path '" + p + "': trailing slash with no descendant"
	}
	return x.walk(it, rest, p)
}

// sibling returns the previous ("-" prefix) or next ("+") sibling of it.
func (x *index) sibling(it *Item, p string) (*Item, string) {
	row := x.children(it.ParentKey)
	i := x.position(it) - 1
	if p[0] == '-' {
		if i-1 < 0 {
			return nil, "path '" + p + "': active item has no previous sibling"
		}
		return row[i-1], ""
	}
	if i < 0 || i+1 >= len(row) {
		return nil, "path '" + p + "': active item has no next sibling"
	}
	return row[i+1], ""
}

// walk descends from base (nil = the root level) by the '/'-separated
// positions of rest; orig is the input path for messages.
func (x *index) walk(base *Item, rest, orig string) (*Item, string) {
	cur := base
	any := false
	for _, seg := range strings.Split(rest, "/") {
		if seg == "" {
			continue
		}
		any = true
		n, ok := position(seg)
		if !ok {
			return nil, "path '" + orig + "': segment '" + seg + "' is not a 1-based position"
		}
		parent := ""
		if cur != nil {
			parent = cur.Key
		}
		kids := x.children(parent)
		if n > len(kids) {
			where := "at root"
			if cur != nil {
				where = "under '" + x.path(cur) + "'"
			}
			return nil, "path not found: " + orig + " (no position " + decimal(seg) + " " + where + ")"
		}
		cur = kids[n-1]
	}
	if !any && base == nil {
		return nil, "path '" + orig + "' is empty"
	}
	return cur, ""
}

// position parses a segment of digits with value >= 1. Values too large
// for an int are reported as an unreachable position (MaxInt).
func position(seg string) (int, bool) {
	nonzero := false
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if c != '0' {
			nonzero = true
		}
	}
	if !nonzero {
		return 0, false
	}
	n, err := strconv.Atoi(seg)
	if err != nil {
		return int(^uint(0) >> 1), true
	}
	return n, true
}

// decimal strips leading zeros from a digit string ("009" → "9").
func decimal(seg string) string {
	s := strings.TrimLeft(seg, "0")
	if s == "" {
		return "0"
	}
	return s
}

// LooksLikePath is the CLI heuristic that tells a path from a word
// (docs/cli.md): ".", "..", "-", "+", a prefix "./",
// "../", "-/", "+/", or digits separated by single slashes with an
// optional leading slash.
func LooksLikePath(s string) bool {
	switch s {
	case ".", "..", "-", "+":
		return true
	}
	for _, p := range [...]string{"./", "../", "-/", "+/"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	s = strings.TrimPrefix(s, "/")
	if s == "" {
		return false
	}
	digits := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '/':
			if digits == 0 {
				return false
			}
			digits = 0
		default:
			return false
		}
	}
	return digits > 0
}
