package server_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
	"github.com/noggin-go/noggin/surfaces/rpc/client"
	nogginv1 "github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1"
	"github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1/nogginv1connect"
	"github.com/noggin-go/noggin/surfaces/rpc/server"
)

// seed writes a two-level document with open descendants into dir/name.
func seed(t *testing.T, eng *noggin.Engine, dir, name string) {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(dir, name), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"ship", "spec"} {
		if _, err := eng.Push(context.Background(), st, noggin.PushOpts{Title: title}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestErrorCodes checks the Connect code of every class of failure and that
// the error detail rebuilds exactly the engine's error.
func TestErrorCodes(t *testing.T) {
	type call func(c nogginv1connect.NogginServiceClient) error
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string) // run on the server root and on the direct twin
		verb  string
		loc   string
		rpc   call
		// direct runs the same call on the engine (nil: store.Open error).
		direct func(eng *noggin.Engine, st noggin.Store) error
		code   connect.Code
		ncode  string
	}{
		{
			name: "text-required", verb: "note", loc: "a.yaml",
			rpc: func(c nogginv1connect.NogginServiceClient) error {
				_, err := c.Note(bg(), connect.NewRequest(&nogginv1.NoteRequest{Location: "a.yaml", Text: " "}))
				return err
			},
			direct: func(eng *noggin.Engine, st noggin.Store) error {
				_, err := eng.Note(context.Background(), st, noggin.NoteOpts{Text: " "})
				return err
			},
			code: connect.CodeInvalidArgument, ncode: noggin.CodeTextRequired,
		},
		{
			name: "path-not-found", verb: "goto", loc: "a.yaml",
			rpc: func(c nogginv1connect.NogginServiceClient) error {
				_, err := c.Goto(bg(), connect.NewRequest(&nogginv1.GotoRequest{Location: "a.yaml", Path: "/4/2"}))
				return err
			},
			direct: func(eng *noggin.Engine, st noggin.Store) error {
				_, err := eng.Goto(context.Background(), st, noggin.GotoOpts{Path: "/4/2"})
				return err
			},
			code: connect.CodeNotFound, ncode: noggin.CodePathNotFound,
		},
		{
			name: "no-active-item", verb: "done", loc: "empty.yaml",
			rpc: func(c nogginv1connect.NogginServiceClient) error {
				_, err := c.Done(bg(), connect.NewRequest(&nogginv1.DoneRequest{Location: "empty.yaml"}))
				return err
			},
			direct: func(eng *noggin.Engine, st noggin.Store) error {
				_, err := eng.Done(context.Background(), st, noggin.DoneOpts{})
				return err
			},
			code: connect.CodeFailedPrecondition, ncode: noggin.CodeNoActiveItem,
		},
		{
			name: "open-descendants", verb: "done", loc: "a.yaml",
			rpc: func(c nogginv1connect.NogginServiceClient) error {
				_, err := c.Done(bg(), connect.NewRequest(&nogginv1.DoneRequest{Location: "a.yaml", Path: "/1"}))
				return err
			},
			direct: func(eng *noggin.Engine, st noggin.Store) error {
				_, err := eng.Done(context.Background(), st, noggin.DoneOpts{Path: "/1"})
				return err
			},
			code: connect.CodeFailedPrecondition, ncode: noggin.CodeOpenDescendants,
		},
		{
			name: "pop-open-descendants-reports-done", verb: "pop", loc: "a.yaml",
			rpc: func(c nogginv1connect.NogginServiceClient) error {
				if _, err := c.Goto(bg(), connect.NewRequest(&nogginv1.GotoRequest{Location: "a.yaml", Path: "/1"})); err != nil {
					return err
				}
				_, err := c.Pop(bg(), connect.NewRequest(&nogginv1.PopRequest{Location: "a.yaml"}))
				return err
			},
			direct: func(eng *noggin.Engine, st noggin.Store) error {
				if _, err := eng.Goto(context.Background(), st, noggin.GotoOpts{Path: "/1"}); err != nil {
					return err
				}
				_, err := eng.Pop(context.Background(), st, noggin.PopOpts{})
				return err
			},
			code: connect.CodeFailedPrecondition, ncode: noggin.CodeOpenDescendants,
		},
		{
			name: "cycle", verb: "move", loc: "a.yaml",
			rpc: func(c nogginv1connect.NogginServiceClient) error {
				_, err := c.Move(bg(), connect.NewRequest(&nogginv1.MoveRequest{Location: "a.yaml", Path: "/1",
					Placement: &nogginv1.Placement{Kind: "into", Anchor: "/1/1"}}))
				return err
			},
			direct: func(eng *noggin.Engine, st noggin.Store) error {
				_, err := eng.Move(context.Background(), st, noggin.MoveOpts{Path: "/1", Placement: place("into", "/1/1")})
				return err
			},
			code: connect.CodeFailedPrecondition, ncode: noggin.CodeCycle,
		},
		{
			name: "goto-path-required", verb: "add", loc: "a.yaml",
			rpc: func(c nogginv1connect.NogginServiceClient) error {
				_, err := c.Add(bg(), connect.NewRequest(&nogginv1.AddRequest{Location: "a.yaml", Title: "t",
					Goto: &nogginv1.Goto{Target: &nogginv1.Goto_Self{Self: false}}}))
				return err
			},
			direct: func(eng *noggin.Engine, st noggin.Store) error {
				_, err := eng.Add(context.Background(), st, noggin.AddOpts{Title: "t", Goto: noggin.Goto{Present: true}})
				return err
			},
			code: connect.CodeFailedPrecondition, ncode: noggin.CodeGotoPathRequired,
		},
		{
			name: "placement-invalid", verb: "add", loc: "a.yaml",
			rpc: func(c nogginv1connect.NogginServiceClient) error {
				_, err := c.Add(bg(), connect.NewRequest(&nogginv1.AddRequest{Location: "a.yaml", Title: "t",
					Placement: &nogginv1.Placement{Kind: "around", Anchor: "/1"}}))
				return err
			},
			direct: func(eng *noggin.Engine, st noggin.Store) error {
				_, err := eng.Add(context.Background(), st, noggin.AddOpts{Title: "t", Placement: place("around", "/1")})
				return err
			},
			code: connect.CodeInvalidArgument, ncode: noggin.CodePlacementInvalid,
		},
		{
			name: "invalid-document", verb: "show", loc: "bad.yaml",
			setup: func(t *testing.T, dir string) {
				t.Helper()
				writeFile(t, filepath.Join(dir, "bad.yaml"), "schemaVersion: 1\nitems: {{{\n")
			},
			rpc: func(c nogginv1connect.NogginServiceClient) error {
				_, err := c.Show(bg(), connect.NewRequest(&nogginv1.ShowRequest{Location: "bad.yaml"}))
				return err
			},
			code: connect.CodeInvalidArgument, ncode: noggin.CodeInvalidDocument,
		},
		{
			name: "unsupported-schema", verb: "where", loc: "v2.yaml",
			setup: func(t *testing.T, dir string) {
				t.Helper()
				writeFile(t, filepath.Join(dir, "v2.yaml"), "schemaVersion: 2\nactive: null\nitems: []\n")
			},
			rpc: func(c nogginv1connect.NogginServiceClient) error {
				_, err := c.Where(bg(), connect.NewRequest(&nogginv1.WhereRequest{Location: "v2.yaml"}))
				return err
			},
			code: connect.CodeInvalidArgument, ncode: noggin.CodeUnsupportedSchema,
		},
		{
			name: "no-provider", verb: "snapshot", loc: "memory://x",
			rpc: func(c nogginv1connect.NogginServiceClient) error {
				_, err := c.Snapshot(bg(), connect.NewRequest(&nogginv1.SnapshotRequest{Location: "memory://x"}))
				return err
			},
			code: connect.CodeInvalidArgument, ncode: noggin.CodeNoProvider,
		},
		{
			name: "no-location", verb: "push", loc: "",
			rpc: func(c nogginv1connect.NogginServiceClient) error {
				_, err := c.Push(bg(), connect.NewRequest(&nogginv1.PushRequest{Title: "x"}))
				return err
			},
			code: connect.CodeInvalidArgument, ncode: noggin.CodeNoLocation,
		},
		{
			name: "location-refused", verb: "push", loc: "../x.yaml",
			rpc: func(c nogginv1connect.NogginServiceClient) error {
				_, err := c.Push(bg(), connect.NewRequest(&nogginv1.PushRequest{Location: "../x.yaml", Title: "x"}))
				return err
			},
			code: connect.CodePermissionDenied, ncode: noggin.CodeLocationRefused,
		},
		{
			name: "lock-timeout", verb: "push", loc: "locked.yaml",
			setup: func(t *testing.T, dir string) {
				t.Helper()
				lock := filepath.Join(dir, "locked.yaml.lock")
				if err := os.Mkdir(lock, 0o755); err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(lock, "pid"), fmt.Sprintf("%d\n%d\n", os.Getpid(), time.Now().UnixMilli()))
			},
			rpc: func(c nogginv1connect.NogginServiceClient) error {
				_, err := c.Push(bg(), connect.NewRequest(&nogginv1.PushRequest{Location: "locked.yaml", Title: "x"}))
				return err
			},
			code: connect.CodeUnavailable, ncode: noggin.CodeLockTimeout,
		},
	}
	eng := testEngine(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := startServer(t, "", withLockTimeout(150*time.Millisecond))
			twin := filepath.Join(t.TempDir(), "root")
			if err := os.Mkdir(twin, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, dir := range []string{ts.root, twin} {
				seed(t, eng, dir, "a.yaml")
				if tc.setup != nil {
					tc.setup(t, dir)
				}
			}
			raw := nogginv1connect.NewNogginServiceClient(http.DefaultClient, ts.url)
			err := tc.rpc(raw)
			if connect.CodeOf(err) != tc.code {
				t.Fatalf("code = %v (%v), want %v", connect.CodeOf(err), err, tc.code)
			}
			got, ok := client.Error(err).(*noggin.Error)
			if !ok {
				t.Fatalf("no error detail in %v", err)
			}
			if got.Code != tc.ncode {
				t.Fatalf("noggin code = %q, want %q", got.Code, tc.ncode)
			}
			// The same failure straight from core.
			st, want := store.Open(context.Background(), tc.loc, store.Options{Root: twin, LockTimeout: 150 * time.Millisecond})
			if want == nil {
				if tc.direct != nil {
					want = tc.direct(eng, st)
				} else {
					_, want = st.Load(context.Background())
					if tc.verb == "push" {
						_, want = eng.Push(context.Background(), st, noggin.PushOpts{Title: "x"})
					}
				}
			}
			wantErr := noggin.Wrap(want)
			// Absolute file paths name each side's own root.
			for i, f := range wantErr.Data {
				if v, ok := f.Value.(string); ok {
					wantErr.Data[i].Value = strings.ReplaceAll(v, twin, ts.root)
				}
			}
			if tc.ncode == noggin.CodeLockTimeout {
				// The message names the absolute lock path of each root.
				wantErr.Message = got.Message
			}
			if !reflect.DeepEqual(got, wantErr) {
				t.Fatalf("rebuilt error\n got %#v\nwant %#v", got, wantErr)
			}
			var ce *connect.Error
			if !errors.As(err, &ce) {
				t.Fatal("not a connect error")
			}
			if ce.Message() != got.MessageFor(tc.verb) {
				t.Fatalf("connect message %q, want %q", ce.Message(), got.MessageFor(tc.verb))
			}
			// The detail's envelope is the canonical error envelope.
			for _, d := range ce.Details() {
				v, _ := d.Value()
				if ed, ok := v.(*nogginv1.ErrorDetail); ok {
					if want := string(envelope.Failure(tc.verb, got).Text()); ed.GetEnvelope() != want || ed.GetVerb() != tc.verb {
						t.Fatalf("detail envelope %q\nwant %q", ed.GetEnvelope(), want)
					}
				}
			}
		})
	}
}

// TestErrorCodeMapping covers the mapping function for every code class,
// including those hard to provoke over the wire.
func TestErrorCodeMapping(t *testing.T) {
	for _, tc := range []struct {
		err  *noggin.Error
		want connect.Code
	}{
		{noggin.NewError(noggin.CodeLocationRefused, noggin.F("location", "/x"), noggin.F("detail", "d")), connect.CodePermissionDenied},
		{noggin.NewError(noggin.CodePathNotFound, noggin.F("path", "/9"), noggin.F("detail", "d")), connect.CodeNotFound},
		{noggin.NewErrorDetail(noggin.CodeLockTimeout, "/f"), connect.CodeUnavailable},
		{noggin.NewError(noggin.CodeTextRequired, noggin.F("verb", "note")), connect.CodeInvalidArgument},
		{noggin.Usage(noggin.CodeNogginError, 2, "usage"), connect.CodeInvalidArgument},
		{noggin.Wrap(errors.New("disk on fire")), connect.CodeInternal},
		{noggin.NewError(noggin.CodeNoActiveItem, noggin.F("verb", "done")), connect.CodeFailedPrecondition},
		{noggin.NewError(noggin.CodeHasDescendants, noggin.F("verb", "delete")), connect.CodeFailedPrecondition},
		{noggin.NewError(noggin.CodeGotoUnresolved, noggin.F("verb", "add")), connect.CodeFailedPrecondition},
		{noggin.NewError(noggin.CodeCycle), connect.CodeFailedPrecondition},
	} {
		if got := server.ConnectCode(tc.err); got != tc.want {
			t.Errorf("%s (exit %d): %v, want %v", tc.err.Code, tc.err.ExitCode, got, tc.want)
		}
	}
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
