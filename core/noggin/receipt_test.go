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
		r := NewReceipt("a", "")
		if _, err := r.Run(func(*Receipt) (*Document, error) { return nil, boom }); !errors.Is(err, boom) {
			t.Fatalf("Run: %v", err)
		}
		if err := r.Commit([]byte("x")); err != nil {
			t.Fatalf("Commit after the write ended: %v", err)
		}
	})
	for _, commit := range []bool{true, false} {
		r := NewReceipt("b", "")
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
		_, _ = NewReceipt("c", "").Run(func(*Receipt) (*Document, error) { panic("planned panic") })
		t.Fatal("no panic")
	})
	t.Run("used twice", func(t *testing.T) {
		r := NewReceipt("d", "")
		_, _ = r.Run(func(*Receipt) (*Document, error) { return doc, nil })
		if _, err := r.Run(func(*Receipt) (*Document, error) { return doc, nil }); err == nil {
			t.Fatal("a second write on one receipt")
		}
	})
}

func TestRecordedBindsTheIDToItsRequest(t *testing.T) {
	same := func(like string) string { return like } // no phantom entries
	entries := []Entry{
		{Seq: 1, Request: "old", Reply: "old answer"}, // written before fingerprints
		{Seq: 2, Request: "a", RequestDigest: "d1", Reply: "answer a"},
		{Seq: 3, Request: "lost", RequestDigest: "d3"},
	}
	for _, tc := range []struct {
		name      string
		receipt   *Receipt
		wantReply string
		wantCode  string
		wantNone  bool
	}{
		{name: "a retry of the same request gets its answer", receipt: NewReceipt("a", "d1"), wantReply: "answer a"},
		{name: "another request under the id is refused", receipt: NewReceipt("a", "d2"), wantCode: CodeRequestIDReused},
		{name: "an entry without a fingerprint matches any request", receipt: NewReceipt("old", "d9"), wantReply: "old answer"},
		{name: "a receipt without a fingerprint matches any entry", receipt: NewReceipt("a", ""), wantReply: "answer a"},
		{name: "an answer not recorded, same request", receipt: NewReceipt("lost", "d3"), wantReply: ""},
		{name: "an answer not recorded, another request", receipt: NewReceipt("lost", "d4"), wantCode: CodeRequestIDReused},
		{name: "an id not recorded", receipt: NewReceipt("new", "d1"), wantNone: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Recorded(entries, tc.receipt, same)
			var replied *Replied
			var ne *Error
			switch {
			case tc.wantNone:
				if err != nil {
					t.Errorf("err = %v, want none", err)
				}
			case tc.wantCode != "":
				if !errors.As(err, &ne) || ne.Code != tc.wantCode || ne.ExitCode != 2 || ne.Get("requestId") != tc.receipt.ID {
					t.Errorf("err = %v, want %s", err, tc.wantCode)
				}
			case !errors.As(err, &replied) || string(replied.Reply) != tc.wantReply:
				t.Errorf("err = %v, want the reply %q", err, tc.wantReply)
			}
		})
	}
}
