// Package convert maps core types to their protobuf messages and back. The
// mapping is one to one: "" (core's null) is an absent optional field.
package convert

import (
	"fmt"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/noggin-go/noggin/core/noggin"
	nogginv1 "github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1"
)

// opt returns nil for "" (null), else a pointer to s.
func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func cloneStr(p *string) *string {
	if p == nil {
		return nil
	}
	s := *p
	return &s
}

// NotesToProto converts notes.
func NotesToProto(ns []noggin.Note) []*nogginv1.Note {
	if len(ns) == 0 {
		return nil
	}
	out := make([]*nogginv1.Note, len(ns))
	for i, n := range ns {
		out[i] = &nogginv1.Note{Timestamp: opt(n.Timestamp), Text: n.Text}
	}
	return out
}

// NotesFromProto converts notes; the result is never nil (the engine's
// views always carry a notes array).
func NotesFromProto(ns []*nogginv1.Note) []noggin.Note {
	out := make([]noggin.Note, len(ns))
	for i, n := range ns {
		out[i] = noggin.Note{Timestamp: n.GetTimestamp(), Text: n.GetText()}
	}
	return out
}

// ViewToProto converts a view (nil stays nil).
func ViewToProto(v *noggin.View) *nogginv1.View {
	if v == nil {
		return nil
	}
	return &nogginv1.View{
		ActivePath: opt(v.ActivePath),
		ActiveKey:  opt(v.ActiveKey),
		TargetKey:  v.TargetKey,
		Items:      nodesToProto(v.Items),
		Cursor:     opt(v.Cursor),
	}
}

func nodesToProto(ns []*noggin.Node) []*nogginv1.Node {
	if len(ns) == 0 {
		return nil
	}
	out := make([]*nogginv1.Node, len(ns))
	for i, n := range ns {
		out[i] = &nogginv1.Node{
			Key:       n.Key,
			ParentKey: opt(n.ParentKey),
			Path:      n.Path,
			Position:  int32(n.Position),
			Title:     n.Title,
			Done:      n.Done,
			CreatedAt: cloneStr(n.CreatedAt),
			Notes:     NotesToProto(n.Notes),
			Expanded:  n.Expanded,
			Children:  nodesToProto(n.Children),
		}
	}
	return out
}

// ViewFromProto converts a view (nil stays nil).
func ViewFromProto(v *nogginv1.View) *noggin.View {
	if v == nil {
		return nil
	}
	return &noggin.View{
		ActivePath: v.GetActivePath(),
		ActiveKey:  v.GetActiveKey(),
		TargetKey:  v.GetTargetKey(),
		Items:      nodesFromProto(v.GetItems(), false),
		Cursor:     v.GetCursor(),
	}
}

func nodesFromProto(ns []*nogginv1.Node, children bool) []*noggin.Node {
	out := make([]*noggin.Node, len(ns))
	if len(ns) == 0 && !children {
		return []*noggin.Node{}
	}
	for i, n := range ns {
		node := &noggin.Node{
			Key:       n.GetKey(),
			ParentKey: n.GetParentKey(),
			Path:      n.GetPath(),
			Position:  int(n.GetPosition()),
			Title:     n.GetTitle(),
			Done:      n.GetDone(),
			CreatedAt: cloneStr(n.CreatedAt),
			Notes:     NotesFromProto(n.GetNotes()),
			Expanded:  n.GetExpanded(),
		}
		if node.Expanded {
			node.Children = nodesFromProto(n.GetChildren(), true)
		}
		out[i] = node
	}
	return out
}

// DeleteToProto converts a delete result.
func DeleteToProto(r *noggin.DeleteResult) *nogginv1.DeleteResponse {
	if r == nil {
		return &nogginv1.DeleteResponse{}
	}
	return &nogginv1.DeleteResponse{
		Deleted:         &nogginv1.DeletedItem{Key: r.Deleted.Key, Path: r.Deleted.Path, Title: r.Deleted.Title},
		DescendantCount: int32(r.DescendantCount),
		View:            ViewToProto(r.View),
	}
}

// DeleteFromProto converts a delete result.
func DeleteFromProto(r *nogginv1.DeleteResponse) *noggin.DeleteResult {
	d := r.GetDeleted()
	return &noggin.DeleteResult{
		Deleted:         noggin.DeletedItem{Key: d.GetKey(), Path: d.GetPath(), Title: d.GetTitle()},
		DescendantCount: int(r.GetDescendantCount()),
		View:            ViewFromProto(r.GetView()),
	}
}

// CopyToProto converts a copy result.
func CopyToProto(r *noggin.CopyResult) *nogginv1.CopyResponse {
	if r == nil {
		return &nogginv1.CopyResponse{}
	}
	out := &nogginv1.CopyResponse{Copied: int32(r.Copied)}
	for _, p := range r.Mapping {
		out.Mapping = append(out.Mapping, &nogginv1.KeyPair{OldKey: p.Old, NewKey: p.New})
	}
	return out
}

// CopyFromProto converts a copy result (Mapping is never nil).
func CopyFromProto(r *nogginv1.CopyResponse) *noggin.CopyResult {
	out := &noggin.CopyResult{Copied: int(r.GetCopied()), Mapping: []noggin.KeyPair{}}
	for _, p := range r.GetMapping() {
		out.Mapping = append(out.Mapping, noggin.KeyPair{Old: p.GetOldKey(), New: p.GetNewKey()})
	}
	return out
}

// ProvidersToProto converts the provider list.
func ProvidersToProto(ps []noggin.Provider) []*nogginv1.Provider {
	out := make([]*nogginv1.Provider, len(ps))
	for i, p := range ps {
		out[i] = &nogginv1.Provider{Scheme: p.Scheme}
	}
	return out
}

// ProvidersFromProto converts the provider list (never nil).
func ProvidersFromProto(ps []*nogginv1.Provider) []noggin.Provider {
	out := make([]noggin.Provider, len(ps))
	for i, p := range ps {
		out[i] = noggin.Provider{Scheme: p.GetScheme()}
	}
	return out
}

// DocumentToProto converts a document to the RPC snapshot shape: the
// accessors only (unknown fields dropped), and active = the key of the
// resolvable active item (a dangling active is absent).
func DocumentToProto(d *noggin.Document) *nogginv1.Document {
	if d == nil {
		return nil
	}
	out := &nogginv1.Document{SchemaVersion: noggin.SchemaVersion}
	found := false
	for _, it := range d.Items {
		if it == nil {
			continue
		}
		if it.Key == d.Active {
			found = true
		}
		out.Items = append(out.Items, ItemToProto(it))
	}
	if d.Active != "" && found {
		out.Active = opt(d.Active)
	}
	out.Cursors = CursorsToProto(d.Cursors())
	return out
}

// ItemToProto converts one item.
func ItemToProto(it *noggin.Item) *nogginv1.Item {
	return &nogginv1.Item{
		Key:       it.Key,
		ParentKey: opt(it.ParentKey),
		Title:     it.Title,
		Done:      it.Done,
		CreatedAt: cloneStr(it.CreatedAt),
		Notes:     NotesToProto(it.Notes),
	}
}

// CursorsToProto converts the cursors.
func CursorsToProto(cs []noggin.Cursor) []*nogginv1.Cursor {
	var out []*nogginv1.Cursor
	for _, c := range cs {
		out = append(out, &nogginv1.Cursor{Agent: c.Agent, Key: opt(c.Key)})
	}
	return out
}

// DocumentFromProto converts a snapshot to a core document.
func DocumentFromProto(d *nogginv1.Document) *noggin.Document {
	if d == nil {
		return nil
	}
	out := &noggin.Document{Active: d.GetActive(), Items: make([]*noggin.Item, 0, len(d.GetItems()))}
	for _, it := range d.GetItems() {
		out.Items = append(out.Items, ItemFromProto(it))
	}
	if cs := d.GetCursors(); len(cs) > 0 {
		m := noggin.Map{}
		for _, c := range cs {
			var key any
			if c.Key != nil {
				key = c.GetKey()
			}
			m = append(m, noggin.Field{Name: c.GetAgent(), Value: key})
		}
		out.Extra = []noggin.Field{{Name: noggin.CursorsField, Value: m}}
	}
	return out
}

// ItemFromProto converts one item.
func ItemFromProto(it *nogginv1.Item) *noggin.Item {
	return &noggin.Item{
		Key:       it.GetKey(),
		ParentKey: it.GetParentKey(),
		Title:     it.GetTitle(),
		Done:      it.GetDone(),
		CreatedAt: cloneStr(it.CreatedAt),
		Notes:     NotesFromProto(it.GetNotes()),
	}
}

// CursorsFromProto converts the cursors.
func CursorsFromProto(cs []*nogginv1.Cursor) []noggin.Cursor {
	var out []noggin.Cursor
	for _, c := range cs {
		out = append(out, noggin.Cursor{Agent: c.GetAgent(), Key: c.GetKey()})
	}
	return out
}

// GotoToProto converts a goto option (absent stays nil).
func GotoToProto(g noggin.Goto) *nogginv1.Goto {
	switch {
	case !g.Present:
		return nil
	case g.Self:
		return &nogginv1.Goto{Target: &nogginv1.Goto_Self{Self: true}}
	case g.Path != "":
		return &nogginv1.Goto{Target: &nogginv1.Goto_Path{Path: g.Path}}
	default:
		return &nogginv1.Goto{}
	}
}

// GotoFromProto converts a goto option: nil is absent; a present message
// with neither self nor a non-empty path is the falsy goto.
func GotoFromProto(g *nogginv1.Goto) noggin.Goto {
	if g == nil {
		return noggin.Goto{}
	}
	return noggin.Goto{Present: true, Self: g.GetSelf(), Path: g.GetPath()}
}

// PlacementToProto converts a placement (nil stays nil).
func PlacementToProto(p *noggin.Placement) *nogginv1.Placement {
	if p == nil {
		return nil
	}
	return &nogginv1.Placement{Kind: p.Kind, Anchor: p.Anchor}
}

// PlacementFromProto converts a placement (nil stays nil).
func PlacementFromProto(p *nogginv1.Placement) *noggin.Placement {
	if p == nil {
		return nil
	}
	return &noggin.Placement{Kind: p.GetKind(), Anchor: p.GetAnchor()}
}

func slotToProto(s noggin.Slot) *nogginv1.Change_Slot {
	return &nogginv1.Change_Slot{ParentKey: opt(s.ParentKey), Position: int32(s.Position)}
}

func slotFromProto(s *nogginv1.Change_Slot) noggin.Slot {
	return noggin.Slot{ParentKey: s.GetParentKey(), Position: int(s.GetPosition())}
}

// ChangesToProto converts a change list.
func ChangesToProto(cs []noggin.Change) []*nogginv1.Change {
	out := make([]*nogginv1.Change, 0, len(cs))
	for _, c := range cs {
		var m *nogginv1.Change
		switch c.Kind {
		case noggin.ChangeAdded:
			m = &nogginv1.Change{Kind: &nogginv1.Change_Added_{Added: &nogginv1.Change_Added{
				Key: c.Key, ParentKey: opt(c.At.ParentKey), Position: int32(c.At.Position)}}}
		case noggin.ChangeRemoved:
			m = &nogginv1.Change{Kind: &nogginv1.Change_Removed_{Removed: &nogginv1.Change_Removed{Key: c.Key}}}
		case noggin.ChangeMoved:
			m = &nogginv1.Change{Kind: &nogginv1.Change_Moved_{Moved: &nogginv1.Change_Moved{
				Key: c.Key, From: slotToProto(c.From), To: slotToProto(c.To)}}}
		case noggin.ChangeUpdated:
			m = &nogginv1.Change{Kind: &nogginv1.Change_Updated_{Updated: &nogginv1.Change_Updated{
				Key: c.Key, Fields: append([]string(nil), c.Fields...)}}}
		case noggin.ChangeActiveChanged:
			m = &nogginv1.Change{Kind: &nogginv1.Change_ActiveChanged_{ActiveChanged: &nogginv1.Change_ActiveChanged{
				From: opt(c.FromKey), To: opt(c.ToKey)}}}
		default:
			continue
		}
		out = append(out, m)
	}
	return out
}

// ChangesFromProto converts a change list.
func ChangesFromProto(cs []*nogginv1.Change) []noggin.Change {
	out := make([]noggin.Change, 0, len(cs))
	for _, c := range cs {
		switch k := c.GetKind().(type) {
		case *nogginv1.Change_Added_:
			out = append(out, noggin.Change{Kind: noggin.ChangeAdded, Key: k.Added.GetKey(),
				At: noggin.Slot{ParentKey: k.Added.GetParentKey(), Position: int(k.Added.GetPosition())}})
		case *nogginv1.Change_Removed_:
			out = append(out, noggin.Change{Kind: noggin.ChangeRemoved, Key: k.Removed.GetKey()})
		case *nogginv1.Change_Moved_:
			out = append(out, noggin.Change{Kind: noggin.ChangeMoved, Key: k.Moved.GetKey(),
				From: slotFromProto(k.Moved.GetFrom()), To: slotFromProto(k.Moved.GetTo())})
		case *nogginv1.Change_Updated_:
			out = append(out, noggin.Change{Kind: noggin.ChangeUpdated, Key: k.Updated.GetKey(),
				Fields: append([]string(nil), k.Updated.GetFields()...)})
		case *nogginv1.Change_ActiveChanged_:
			out = append(out, noggin.Change{Kind: noggin.ChangeActiveChanged,
				FromKey: k.ActiveChanged.GetFrom(), ToKey: k.ActiveChanged.GetTo()})
		}
	}
	return out
}

// ErrorToProto converts a core error into its error detail. verb is the
// verb the server ran; envelope is the canonical error envelope text.
func ErrorToProto(e *noggin.Error, verb, envelope string) *nogginv1.ErrorDetail {
	d := &nogginv1.ErrorDetail{
		Code:     e.Code,
		Message:  e.Message,
		ExitCode: int32(e.ExitCode),
		Literal:  e.Literal,
		Verb:     verb,
		Envelope: envelope,
	}
	for _, f := range e.Data {
		d.Data = append(d.Data, fieldToProto(f))
	}
	return d
}

func fieldToProto(f noggin.Field) *nogginv1.ErrorDetail_Field {
	out := &nogginv1.ErrorDetail_Field{Name: f.Name}
	switch v := f.Value.(type) {
	case nil:
		out.Value = &nogginv1.ErrorDetail_Field_NullValue{NullValue: structpb.NullValue_NULL_VALUE}
	case string:
		out.Value = &nogginv1.ErrorDetail_Field_StringValue{StringValue: v}
	case bool:
		out.Value = &nogginv1.ErrorDetail_Field_BoolValue{BoolValue: v}
	case int:
		out.Value = &nogginv1.ErrorDetail_Field_IntValue{IntValue: int64(v)}
	case int32:
		out.Value = &nogginv1.ErrorDetail_Field_IntValue{IntValue: int64(v)}
	case int64:
		out.Value = &nogginv1.ErrorDetail_Field_IntValue{IntValue: v}
	case noggin.Number:
		out.Value = &nogginv1.ErrorDetail_Field_StringValue{StringValue: string(v)}
	default:
		out.Value = &nogginv1.ErrorDetail_Field_StringValue{StringValue: fmt.Sprint(v)}
	}
	return out
}

// ErrorFromProto rebuilds the core error from its detail: code, message,
// exit code, literal flag and data in order with Go values string, int,
// bool and nil.
func ErrorFromProto(d *nogginv1.ErrorDetail) *noggin.Error {
	e := &noggin.Error{
		Code:     d.GetCode(),
		ExitCode: int(d.GetExitCode()),
		Message:  d.GetMessage(),
		Literal:  d.GetLiteral(),
	}
	for _, f := range d.GetData() {
		var v any
		switch x := f.GetValue().(type) {
		case *nogginv1.ErrorDetail_Field_StringValue:
			v = x.StringValue
		case *nogginv1.ErrorDetail_Field_IntValue:
			v = int(x.IntValue)
		case *nogginv1.ErrorDetail_Field_BoolValue:
			v = x.BoolValue
		default:
			v = nil
		}
		e.Data = append(e.Data, noggin.Field{Name: f.GetName(), Value: v})
	}
	return e
}

// FindToProto converts a find result.
func FindToProto(r *noggin.FindResult) *nogginv1.FindResponse {
	out := &nogginv1.FindResponse{Total: int32(r.Total)}
	for _, m := range r.Matches {
		out.Matches = append(out.Matches, &nogginv1.FindMatch{Key: m.Key, Path: m.Path, Title: m.Title, Done: m.Done,
			NoteTimestamps: m.Notes})
	}
	return out
}

// FindFromProto converts a find result (Matches is never nil).
func FindFromProto(r *nogginv1.FindResponse) *noggin.FindResult {
	out := &noggin.FindResult{Total: int(r.GetTotal()), Matches: []noggin.FindMatch{}}
	for _, m := range r.GetMatches() {
		out.Matches = append(out.Matches, noggin.FindMatch{Key: m.GetKey(), Path: m.GetPath(), Title: m.GetTitle(),
			Done: m.GetDone(), Notes: m.GetNoteTimestamps()})
	}
	return out
}

// EntryToProto converts a history entry (nil stays nil).
func EntryToProto(e *noggin.Entry) *nogginv1.HistoryEntry {
	if e == nil {
		return nil
	}
	out := &nogginv1.HistoryEntry{Seq: int32(e.Seq), Time: e.Time, Verb: e.Verb,
		Undoes: int32(e.Undoes), Redoes: int32(e.Redoes), Summary: e.Summary(), Agent: opt(e.Agent), Principal: opt(e.Principal)}
	for _, c := range e.Changes {
		out.Changes = append(out.Changes, &nogginv1.HistoryChange{Kind: c.Kind, Key: opt(c.Key), Title: c.Title, Cursor: opt(c.Cursor)})
	}
	return out
}

// EntryFromProto converts a history entry (nil stays nil).
func EntryFromProto(e *nogginv1.HistoryEntry) *noggin.Entry {
	if e == nil {
		return nil
	}
	out := &noggin.Entry{Seq: int(e.GetSeq()), Time: e.GetTime(), Verb: e.GetVerb(),
		Undoes: int(e.GetUndoes()), Redoes: int(e.GetRedoes()), Agent: e.GetAgent(), Principal: e.GetPrincipal()}
	for _, c := range e.GetChanges() {
		out.Changes = append(out.Changes, noggin.EntryChange{Kind: c.GetKind(), Key: c.GetKey(), Title: c.GetTitle(), Cursor: c.GetCursor()})
	}
	return out
}

// LogToProto converts a log result.
func LogToProto(r *noggin.LogResult) *nogginv1.LogResponse {
	out := &nogginv1.LogResponse{Unreadable: int32(r.Unreadable), Missing: r.Missing}
	for _, e := range r.Entries {
		out.Entries = append(out.Entries, EntryToProto(e))
	}
	return out
}

// LogFromProto converts a log result (Entries is never nil).
func LogFromProto(r *nogginv1.LogResponse) *noggin.LogResult {
	out := &noggin.LogResult{Unreadable: int(r.GetUnreadable()), Missing: r.GetMissing(), Entries: []*noggin.Entry{}}
	for _, e := range r.GetEntries() {
		out.Entries = append(out.Entries, EntryFromProto(e))
	}
	return out
}

// FeedToProto converts a changes result.
func FeedToProto(r *noggin.ChangesResult) *nogginv1.ChangesResponse {
	out := &nogginv1.ChangesResponse{Since: r.Since, Next: r.Next, More: r.More}
	for _, w := range r.Writes {
		pw := &nogginv1.FeedWrite{Seq: int32(w.Seq), Time: w.Time, Verb: w.Verb, Agent: opt(w.Agent), Principal: opt(w.Principal),
			Undoes: int32(w.Undoes), Redoes: int32(w.Redoes), Revision: w.Revision}
		for _, c := range w.Changes {
			pc := &nogginv1.FeedChange{Kind: c.Kind, Key: opt(c.Key), Path: opt(c.Path), Title: c.Title,
				HasParent: c.HasParent, ParentKey: opt(c.Parent), Done: c.Done, Cursor: opt(c.Cursor)}
			if c.Note != nil {
				pc.Note = &nogginv1.Note{Timestamp: opt(c.Note.Timestamp), Text: c.Note.Text}
			}
			pw.Changes = append(pw.Changes, pc)
		}
		out.Writes = append(out.Writes, pw)
	}
	return out
}

// FeedFromProto converts a changes result (Writes is never nil).
func FeedFromProto(r *nogginv1.ChangesResponse) *noggin.ChangesResult {
	out := &noggin.ChangesResult{Since: r.GetSince(), Next: r.GetNext(), More: r.GetMore(), Writes: []*noggin.ChangesWrite{}}
	for _, pw := range r.GetWrites() {
		w := &noggin.ChangesWrite{Seq: int(pw.GetSeq()), Time: pw.GetTime(), Verb: pw.GetVerb(), Agent: pw.GetAgent(), Principal: pw.GetPrincipal(),
			Undoes: int(pw.GetUndoes()), Redoes: int(pw.GetRedoes()), Revision: pw.GetRevision(), Changes: []noggin.ChangeRecord{}}
		for _, pc := range pw.GetChanges() {
			c := noggin.ChangeRecord{EntryChange: noggin.EntryChange{Kind: pc.GetKind(), Key: pc.GetKey(), Title: pc.GetTitle(), Cursor: pc.GetCursor()},
				Path: pc.GetPath(), HasParent: pc.GetHasParent(), Parent: pc.GetParentKey(), Done: pc.GetDone()}
			if n := pc.GetNote(); n != nil {
				c.Note = &noggin.Note{Timestamp: n.GetTimestamp(), Text: n.GetText()}
			}
			w.Changes = append(w.Changes, c)
		}
		out.Writes = append(out.Writes, w)
	}
	return out
}

// AgentHeader names the agent a call is made for, on every method (typed,
// Call, Run; a Run request's own "agent" argument comes first).
const AgentHeader = "Noggin-Agent"

// RevisionHeader carries a typed call's revision (the envelope's
// "revision") in its response.
const RevisionHeader = "Noggin-Revision"

// AgentsToProto converts agents' result.
func AgentsToProto(r *noggin.AgentsResult) *nogginv1.AgentsResponse {
	out := &nogginv1.AgentsResponse{Forgotten: opt(r.Forgotten)}
	for _, c := range r.Agents {
		ac := &nogginv1.AgentCursor{Agent: c.Agent, Key: opt(c.Key), Path: opt(c.Path)}
		if c.Path != "" {
			ac.Title = &c.Title
		}
		out.Agents = append(out.Agents, ac)
	}
	return out
}

// AgentsFromProto converts agents' result (Agents is never nil).
func AgentsFromProto(r *nogginv1.AgentsResponse) *noggin.AgentsResult {
	out := &noggin.AgentsResult{Forgotten: r.GetForgotten(), Agents: []noggin.AgentCursor{}}
	for _, c := range r.GetAgents() {
		out.Agents = append(out.Agents, noggin.AgentCursor{Agent: c.GetAgent(), Key: c.GetKey(), Path: c.GetPath(), Title: c.GetTitle()})
	}
	return out
}
