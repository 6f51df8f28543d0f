package noggin

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/jsonw"
)

// wide is a noggin of ten roots, the sixth active with eight children
// (one with a note) and the first with two.
func wide() *Document {
	var b strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, "r%d key=r%d", i, i)
		if i == 6 {
			b.WriteString(" active")
		}
		b.WriteString("\n")
		kids := map[int]int{1: 2, 6: 8}[i]
		for j := 1; j <= kids; j++ {
			fmt.Fprintf(&b, "  c%d.%d key=c%d.%d", i, j, i, j)
			if j == 2 {
				b.WriteString(" note=n")
			}
			b.WriteString("\n")
		}
	}
	return tree(b.String())
}

func humanOf(v *View) string {
	var b bytes.Buffer
	v.Human(&Human{B: &b, Verb: "show"})
	return b.String()
}

func TestWindowed(t *testing.T) {
	doc := wide()
	cases := []struct {
		name, target string
		window       int
		want         string
	}{
		{"a window wider than every row keeps the view", "r6", 20,
			"/1 r1\n/2 r2\n/3 r3\n/4 r4\n/5 r5\n/6 📍 r6\n  /6/1 c6.1\n  /6/2 c6.2 ✏️\n  /6/3 c6.3\n  /6/4 c6.4\n  /6/5 c6.5\n  /6/6 c6.6\n  /6/7 c6.7\n  /6/8 c6.8\n/7 r7\n/8 r8\n/9 r9\n/10 r10\n"},
		{"the spine's row is centred on it, children are the first n", "r6", 3,
			"… 4 before\n/5 r5\n/6 📍 r6\n  /6/1 c6.1\n  /6/2 c6.2 ✏️\n  /6/3 c6.3\n  … 5 after\n/7 r7\n… 3 after\n"},
		{"an even window puts the extra node after", "r6", 4,
			"… 4 before\n/5 r5\n/6 📍 r6\n  /6/1 c6.1\n  /6/2 c6.2 ✏️\n  /6/3 c6.3\n  /6/4 c6.4\n  … 4 after\n/7 r7\n/8 r8\n… 2 after\n"},
		{"at the start of a row the window slides right", "r1", 3,
			"/1 r1\n  /1/1 c1.1\n  /1/2 c1.2 ✏️\n/2 r2\n/3 r3\n… 7 after\n"},
		{"at the end of a row it slides left", "r10", 3,
			"… 7 before\n/8 r8\n/9 r9\n/10 r10\n"},
		{"a window of one keeps only the spine (ancestors show no siblings)", "c6.7", 1,
			"/6 📍 r6\n  … 6 before\n  /6/7 c6.7\n  … 1 after\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			full := BuildView(doc, c.target)
			before := humanOf(full)
			v := full.Windowed(c.window)
			if got := humanOf(v); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
			if humanOf(full) != before {
				t.Error("Windowed changed the view it was given")
			}
			if c.window < 10 && v.Window != c.window {
				t.Errorf("window %d, want %d", v.Window, c.window)
			}
		})
	}
}

// TestWindowedJSON: the counts are in the envelope's data (core/request
// tests read them back).
func TestWindowedJSON(t *testing.T) {
	v := BuildView(wide(), "r6").Windowed(3).WithoutNotes()
	js := jsonOf(v)
	for _, want := range []string{`"window": 3`, `"omittedBefore": 4`, `"omittedAfter": 3`, `"omittedAfter": 5`, `"noteCount": 1`} {
		if !strings.Contains(js, want) {
			t.Errorf("no %s in\n%s", want, js)
		}
	}
	if strings.Contains(js, `"notes"`) {
		t.Errorf("notes left in\n%s", js)
	}
}

func jsonOf(v *View) string {
	w := &jsonw.Writer{}
	v.AppendJSON(w, 0)
	return string(w.B)
}

func TestWithoutItems(t *testing.T) {
	v := BuildView(wide(), "r6").Windowed(3).WithoutItems()
	v.Narrowed = NarrowItems
	if got, want := humanOf(v), itemsOmittedLine+"\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if js := jsonOf(v); !strings.Contains(js, `"items": []`) || strings.Contains(js, "omitted") {
		t.Errorf("got\n%s", js)
	}
}

func TestMapViews(t *testing.T) {
	v := BuildView(wide(), "r6")
	count := func(r Result) int {
		n := 0
		MapViews(r, func(v *View) *View { n++; return v })
		return n
	}
	cases := []struct {
		name string
		r    Result
		want int
	}{
		{"a view", v, 1},
		{"a nil view", (*View)(nil), 0},
		{"a delete's view", &DeleteResult{View: v}, 1},
		{"a delete with nothing active", &DeleteResult{}, 0},
		{"an undo's view", &UndoResult{View: v}, 1},
		{"a location", Location("x"), 0},
	}
	for _, c := range cases {
		if got := count(c.r); got != c.want || HasViews(c.r) != (c.want > 0) {
			t.Errorf("%s: %d views, want %d", c.name, got, c.want)
		}
	}
}
