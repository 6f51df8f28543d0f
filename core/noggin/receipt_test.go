package noggin

import (
	"errors"
	"testing"
)

// TestReceiptRun: a write that ends before awaiting (an error, nothing to
// write) returns at once; one that awaits hands its document over, then
// records the reply Commit gives or writes nothing after Abort; a panic
// in the write is the caller's panic.
func TestReceiptRun(t *testing.T) {
	doc := NewDocument()
	boom := errors.New("boom")
	t.Run("error before awaiting", func(t *testing.T) {
		r := NewReceipt("a")
		if _, err := r.Run(func(*Receipt) (*Document, error) { return nil, boom }); !errors.Is(err, boom) {
			t.Fatalf("Run: %v", err)
		}
		if err := r.Commit([]byte("x")); err != nil {
			t.Fatalf("Commit after the write ended: %v", err)
		}
	})
	for _, commit := range []bool{true, false} {
		r := NewReceipt("b")
		var got []byte
		var ok bool
		next, err := r.Run(func(r *Receipt) (*Document, error) {
			got, ok = r.Await(doc)
			return doc, nil
		})
		if err != nil || next != doc {
			t.Fatalf("Run: %v %v", next, err)
		}
		if commit {
			if err := r.Commit([]byte("reply")); err != nil || !ok || string(got) != "reply" {
				t.Errorf("Commit: %v, the write got %q %v", err, got, ok)
			}
		} else if r.Abort(); ok {
			t.Errorf("Abort: the write got a reply %q", got)
		}
	}
	t.Run("panic", func(t *testing.T) {
		defer func() {
			if v := recover(); v != "planned panic" {
				t.Fatalf("recovered %v", v)
			}
		}()
		_, _ = NewReceipt("c").Run(func(*Receipt) (*Document, error) { panic("planned panic") })
		t.Fatal("no panic")
	})
	t.Run("used twice", func(t *testing.T) {
		r := NewReceipt("d")
		_, _ = r.Run(func(*Receipt) (*Document, error) { return doc, nil })
		if _, err := r.Run(func(*Receipt) (*Document, error) { return doc, nil }); err == nil {
			t.Fatal("a second write on one receipt")
		}
	})
}
