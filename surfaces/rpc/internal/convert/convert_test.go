package convert

import (
	"reflect"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/noggin-go/noggin/core/noggin"
	nogginv1 "github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1"
)

func TestErrorRoundTrip(t *testing.T) {
	for _, e := range []*noggin.Error{
		noggin.NewError(noggin.CodeOpenDescendants, noggin.F("verb", "done"), noggin.F("path", "/1/2"),
			noggin.F("title", "beta"), noggin.F("openCount", 1)),
		{Code: "x", ExitCode: 2, Message: "m", Data: []noggin.Field{
			noggin.F("s", ""), noggin.F("i", -7), noggin.F("b", true), noggin.F("f", false), noggin.F("n", nil)}},
		noggin.Usage(noggin.CodeNogginError, 2, "unknown flag: --x"),
		noggin.Wrap(errTest("boom")),
	} {
		// Through the wire format, not just the struct.
		b, err := proto.Marshal(ErrorToProto(e, "done", "{}"))
		if err != nil {
			t.Fatal(err)
		}
		var d nogginv1.ErrorDetail
		if err := proto.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		if got := ErrorFromProto(&d); !reflect.DeepEqual(got, e) {
			t.Errorf("round trip\n got %#v\nwant %#v", got, e)
		}
	}
}

type errTest string

func (e errTest) Error() string { return string(e) }

func TestGotoRoundTrip(t *testing.T) {
	for _, g := range []noggin.Goto{
		{}, {Present: true}, {Present: true, Self: true}, {Present: true, Path: ".."},
	} {
		if got := GotoFromProto(GotoToProto(g)); got != g {
			t.Errorf("%+v -> %+v", g, got)
		}
	}
}

func TestChangesRoundTrip(t *testing.T) {
	cs := []noggin.Change{
		{Kind: noggin.ChangeRemoved, Key: "k0"},
		{Kind: noggin.ChangeAdded, Key: "k1", At: noggin.Slot{Position: 2}},
		{Kind: noggin.ChangeAdded, Key: "k2", At: noggin.Slot{ParentKey: "k1", Position: 0}},
		{Kind: noggin.ChangeMoved, Key: "k3", From: noggin.Slot{ParentKey: "k1", Position: 1}, To: noggin.Slot{Position: 0}},
		{Kind: noggin.ChangeUpdated, Key: "k3", Fields: []string{"title", "done", "notes"}},
		{Kind: noggin.ChangeActiveChanged, FromKey: "", ToKey: "k2"},
		{Kind: noggin.ChangeActiveChanged, FromKey: "k2", ToKey: ""},
	}
	if got := ChangesFromProto(ChangesToProto(cs)); !reflect.DeepEqual(got, cs) {
		t.Errorf("got %+v", got)
	}
}

func TestDocumentSnapshotShape(t *testing.T) {
	c := "2026-01-01T00:00:00.000Z"
	doc := &noggin.Document{Active: "gone", Items: []*noggin.Item{
		{Key: "a", Title: "A", CreatedAt: &c, Notes: []noggin.Note{{Text: "t"}},
			Foreign: &noggin.Foreign{Extra: []noggin.Field{noggin.F("x", 1)}}},
		{Key: "b", ParentKey: "a", Title: "B", Done: true},
	}}
	p := DocumentToProto(doc)
	if p.Active != nil {
		t.Errorf("dangling active should be absent, got %q", p.GetActive())
	}
	back := DocumentFromProto(p)
	if back.Active != "" || len(back.Items) != 2 || back.Items[0].Foreign != nil ||
		*back.Items[0].CreatedAt != c || back.Items[1].CreatedAt != nil ||
		back.Items[0].Notes[0].Timestamp != "" || back.Items[1].ParentKey != "a" {
		t.Errorf("unexpected %+v", back)
	}
	doc.Active = "b"
	if DocumentToProto(doc).GetActive() != "b" {
		t.Error("active lost")
	}
}
