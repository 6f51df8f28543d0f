package codec

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// fragments are pieces of hostile text: YAML indicators, ambiguous
// scalars, quotes, whitespace and control characters, non-ASCII.
var fragments = []string{
	"plain", "words here", "it's", "'", "''", `"`, `\`, `\n`, ": ", ":", " #", "#", "a#b", "- ", "-", "--", "---", "...",
	"? ", "?", "@", "`", "{", "}", "[", "]", "*", "&", "!", "%", "|", ">", "=", ",", "<<",
	"yes", "no", "on", "off", "y", "N", "true", "False", "null", "NULL", "~", "",
	"123", "1.5", "0x1F", "1e3", ".5", "+1", "-1", "0o17", "1_000", "1:30", ".inf", "-.INF", ".nan",
	"2026-06-16T18:46:44.071Z", "2026-01-01", "2026-1-1 10:00:00 +01:00",
	" ", "  ", "\t", "\n", "\n\n", "\r", "\r\n", "\x00", "\x07", "\x1b", "\x7f", "\u0085", "\u00a0", "\u2028", "\u2029", "\ufeff",
	"é", "ü", "日本語", "😀", "🎉🎉", "\U0001F600 x", "a\u0301",
}

func randString(r *rand.Rand) string {
	switch r.Intn(12) {
	case 0:
		return ""
	case 1: // a long line of words (folding)
		var b strings.Builder
		n := 20 + r.Intn(60)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(strings.Repeat(" ", 1+r.Intn(2)*r.Intn(2)))
			}
			b.WriteString(fragments[r.Intn(12)])
			if r.Intn(8) == 0 {
				b.WriteString("😀")
			}
		}
		return b.String()
	case 2: // one unbreakable word
		return strings.Repeat("x", 90+r.Intn(220))
	case 3: // multi-line
		lines := make([]string, 1+r.Intn(5))
		for i := range lines {
			switch r.Intn(4) {
			case 0:
				lines[i] = ""
			case 1:
				lines[i] = strings.Repeat(" ", 1+r.Intn(3)) + fragments[r.Intn(len(fragments))]
			default:
				lines[i] = randShort(r)
			}
		}
		return strings.Join(lines, "\n") + strings.Repeat("\n", r.Intn(3))
	case 4: // 300-character line of words
		var b strings.Builder
		for b.Len() < 300 {
			b.WriteString("lorem ipsum: dolor #sit ")
		}
		return b.String()[:300]
	}
	return randShort(r)
}

func randShort(r *rand.Rand) string {
	var b strings.Builder
	n := 1 + r.Intn(4)
	for i := 0; i < n; i++ {
		if i > 0 && r.Intn(2) == 0 {
			b.WriteByte(' ')
		}
		b.WriteString(fragments[r.Intn(len(fragments))])
	}
	return b.String()
}

func randNumber(r *rand.Rand, json bool) noggin.Number {
	ns := []string{"0", "1", "-3", "1.5", "1e+21", "1e-7", "5e-7", "123456789012", "0.1"}
	if !json {
		ns = append(ns, "NaN", "Infinity", "-Infinity", "-0")
	}
	return noggin.Number(ns[r.Intn(len(ns))])
}

func randKey(r *rand.Rand) string {
	for {
		k := randShort(r)
		switch k {
		case fKey, fParentKey, fTitle, fDone, fCreatedAt, fNotes, fClosedAt, fPushedAt, fSchemaVersion, fActive, fItems:
			continue
		}
		if _, idx := jsIndexKey(k); idx {
			continue
		}
		return k
	}
}

func randValue(r *rand.Rand, depth int, json bool) any {
	k := r.Intn(7)
	if depth > 3 {
		k = r.Intn(4)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return r.Intn(2) == 0
	case 2:
		return randNumber(r, json)
	case 3:
		return randString(r)
	case 4, 5:
		s := make([]any, r.Intn(4))
		for i := range s {
			s[i] = randValue(r, depth+1, json)
		}
		return s
	}
	return randMap(r, depth+1, json)
}

func randMap(r *rand.Rand, depth int, json bool) noggin.Map {
	m := noggin.Map{}
	n := r.Intn(4)
	for i := 0; i < n; i++ {
		k := randKey(r)
		if _, dup := get(m, k); dup {
			continue
		}
		m = append(m, noggin.Field{Name: k, Value: randValue(r, depth, json)})
	}
	return m
}

// randDoc builds a random canonical document (as DecodeYAML would return
// it), exercising every string style, unknown fields and field orders.
func randDoc(r *rand.Rand, json bool) *noggin.Document {
	doc := &noggin.Document{Items: []*noggin.Item{}}
	n := r.Intn(8)
	for i := 0; i < n; i++ {
		it := &noggin.Item{Key: randString(r), Title: randString(r), Done: r.Intn(3) == 0, Notes: []noggin.Note{}}
		if r.Intn(2) == 0 && i > 0 {
			it.ParentKey = doc.Items[r.Intn(i)].Key
		}
		if r.Intn(4) != 0 {
			s := randString(r)
			it.CreatedAt = &s
		}
		for j := r.Intn(4); j > 0; j-- {
			nt := noggin.Note{Text: randString(r)}
			if r.Intn(5) != 0 {
				nt.Timestamp = randString(r)
			}
			it.Notes = append(it.Notes, nt)
		}
		if r.Intn(4) == 0 {
			extra := randMap(r, 1, json)
			order := []string{fKey, fParentKey, fTitle, fDone, fNotes}
			if it.CreatedAt != nil || r.Intn(2) == 0 {
				order = append(order, fCreatedAt)
			}
			for _, f := range extra {
				order = append(order, f.Name)
			}
			r.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
			extra = sortExtra(extra, order)
			if len(extra) == 0 {
				extra = nil
			}
			if !canonItemOrder(order, extra, it.CreatedAt != nil) {
				it.Foreign = &noggin.Foreign{Order: order, Extra: extra}
			}
		}
		doc.Items = append(doc.Items, it)
	}
	if n > 0 && r.Intn(3) != 0 {
		doc.Active = doc.Items[r.Intn(n)].Key
	} else if r.Intn(4) == 0 {
		doc.Active = randString(r)
	}
	if r.Intn(4) == 0 {
		doc.Extra = randMap(r, 1, json)
		order := []string{fSchemaVersion, fActive, fItems}
		for _, f := range doc.Extra {
			order = append(order, f.Name)
		}
		r.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		doc.Order = order
		doc.Extra = sortExtra(doc.Extra, order)
		if len(doc.Extra) == 0 {
			doc.Extra = nil
		}
		canonDocOrder(doc)
	}
	return doc
}

// sortExtra orders fields like order (as a decoder fills Extra).
func sortExtra(m noggin.Map, order []string) []noggin.Field {
	var out []noggin.Field
	for _, n := range order {
		if v, ok := get(m, n); ok {
			out = append(out, noggin.Field{Name: n, Value: v})
		}
	}
	return out
}

// Property: DecodeYAML(EncodeYAML(doc)) == doc and DecodeJSON(EncodeJSON(doc))
// == doc, for random documents full of hostile strings.
func TestRoundTripProperty(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		json := i%2 == 1
		doc := randDoc(r, json)
		var text []byte
		var back *noggin.Document
		var err error
		if json {
			text = EncodeJSON(doc)
			back, err = DecodeJSON(text)
		} else {
			text = EncodeYAML(doc)
			back, err = DecodeYAML(text)
		}
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, text)
		}
		if !reflect.DeepEqual(doc, back) {
			t.Fatalf("case %d (json=%v): round trip differs\n--- text\n%s--- %s", i, json, text, deepDiff("doc", reflect.ValueOf(doc), reflect.ValueOf(back)))
		}
		if !json {
			// writing again gives the same bytes
			if again := EncodeYAML(back); string(again) != string(text) {
				t.Fatalf("case %d: second save differs", i)
			}
		}
	}
}

func TestRoundTripGenerated(t *testing.T) {
	for _, n := range []int{0, 1, 100, 2000} {
		doc := sampledoc.Doc(n, int64(n))
		for _, json := range []bool{false, true} {
			var back *noggin.Document
			var err error
			if json {
				back, err = DecodeJSON(EncodeJSON(doc))
			} else {
				back, err = DecodeYAML(EncodeYAML(doc))
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(doc, back) {
				t.Fatalf("n=%d json=%v: round trip differs", n, json)
			}
		}
	}
}

func deepDiff(path string, a, b reflect.Value) string {
	if !a.IsValid() || !b.IsValid() {
		if a.IsValid() != b.IsValid() {
			return path + ": validity"
		}
		return ""
	}
	if a.Type() != b.Type() {
		return fmt.Sprintf("%s: type %v vs %v", path, a.Type(), b.Type())
	}
	switch a.Kind() { //nolint:exhaustive // the kinds a document holds; the rest compare with ==
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil vs non-nil"
			}
			return ""
		}
		return deepDiff(path, a.Elem(), b.Elem())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if d := deepDiff(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil slice %v vs %v", path, a.IsNil(), b.IsNil())
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: len %d vs %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if d := deepDiff(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a.Interface(), b.Interface()) {
		return fmt.Sprintf("%s: %#v vs %#v", path, a.Interface(), b.Interface())
	}
	return ""
}
