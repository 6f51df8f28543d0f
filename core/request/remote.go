package request

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/jstext"
	"github.com/noggin-go/noggin/core/noggin"
)

// Remote runs requests on noggins served by noggin-rpc: a location
// http://HOST:PORT/NAME (or https://…) names the noggin NAME under the
// server's root. The Runner hands such a request, its locations rewritten
// to the server's names, to Remote; the server runs it with this same
// package, so the envelope is the one a local run gives.
type Remote interface {
	// Run runs req on the server at base ("http://HOST:PORT") and returns
	// the envelope it answered, or an envelope of the failure to reach it.
	Run(ctx context.Context, base string, req *Request) envelope.Envelope
}

// remoteSchemes are the location schemes Remote serves.
var remoteSchemes = []string{"http", "https"}

// RemoteLocation splits a remote location into the server's base URL and
// the noggin's name on it. ok is false for a location that is not http(s).
// A URL with credentials, a query or a fragment, or without a name, is
// refused: the token comes from the environment, never from the URL.
func RemoteLocation(loc string) (base, name string, ok bool, err error) {
	scheme, _, found := strings.Cut(loc, "://")
	if !found || !isRemoteScheme(scheme) {
		return "", "", false, nil
	}
	u, perr := url.Parse(loc)
	switch {
	case perr != nil || u.Host == "":
		return "", "", true, refused(loc, "not a valid URL: http://HOST:PORT/NAME")
	case u.User != nil:
		// Never echo what may be a secret: the user info is masked.
		u.User = url.User("***")
		return "", "", true, refused(strings.Replace(u.String(), "%2A%2A%2A", "***", 1), "credentials do not belong in the URL: use noggin login")
	case u.RawQuery != "" || u.Fragment != "" || strings.Contains(loc, "?") || strings.Contains(loc, "#"):
		// Never echo what may be a secret (?token=…): the query is masked.
		shown, _, _ := strings.Cut(loc, "?")
		shown, _, _ = strings.Cut(shown, "#")
		return "", "", true, refused(shown+"?…", "a remote location has no query or fragment: http://HOST:PORT/NAME")
	}
	name = strings.TrimPrefix(u.Path, "/")
	if name == "" {
		return "", "", true, refused(loc, "name the noggin after the server: http://HOST:PORT/NAME")
	}
	return strings.ToLower(u.Scheme) + "://" + u.Host, name, true, nil
}

func isRemoteScheme(s string) bool {
	for _, r := range remoteSchemes {
		if strings.EqualFold(s, r) {
			return true
		}
	}
	return false
}

func refused(loc, detail string) error {
	return noggin.NewError(noggin.CodeLocationRefused, noggin.F("location", loc), noggin.F("detail", detail))
}

// runRemote runs req on its server when its noggin is remote; handled is
// false for a local request.
func (r *Runner) runRemote(ctx context.Context, req *Request) (env envelope.Envelope, handled bool) {
	if req.Verb == "copy" {
		return r.copyRemote(ctx, req)
	}
	if req.Verb == "providers" {
		return envelope.Envelope{}, false
	}
	loc := r.location(req.Location)
	base, name, ok, err := RemoteLocation(loc)
	if !ok {
		return envelope.Envelope{}, false
	}
	if err == nil && r.Remote == nil {
		err = noggin.NewError(noggin.CodeNoProvider, noggin.F("scheme", strings.SplitN(loc, ":", 2)[0]), noggin.F("location", loc))
	}
	if err != nil {
		return envelope.Failure(req.Verb, err), true
	}
	fwd := *req
	fwd.Location = String(name)
	env = r.Remote.Run(ctx, base, &fwd)
	if env.OK() && req.Verb == "where" { // the location as this client names it
		if l, ok := env.Data.(noggin.AgentLocation); ok {
			env.Data = noggin.AgentLocation{Location: loc, Agent: l.Agent}
		} else {
			env.Data = noggin.Location(loc)
		}
	}
	return env, true
}

// copyRemote runs a copy with a remote side: on the server when both
// noggins are on one server; a copy between a server and another place is
// refused for now.
func (r *Runner) copyRemote(ctx context.Context, req *Request) (envelope.Envelope, bool) {
	from, to := req.copyLocations()
	fl, tl := jstext.TrimSpace(from.text()), jstext.TrimSpace(to.text())
	fb, fn, fok, ferr := RemoteLocation(fl)
	tb, tn, tok, terr := RemoteLocation(tl)
	if !fok && !tok || fl == "" || tl == "" { // local, or a missing side (core's checks say which)
		return envelope.Envelope{}, false
	}
	// A local side that cannot be opened fails as it would locally.
	for _, side := range []struct {
		loc    string
		remote bool
	}{{fl, fok}, {tl, tok}} {
		if !side.remote {
			if _, err := r.Opener.Open(ctx, side.loc); err != nil {
				return envelope.Failure("copy", err), true
			}
		}
	}
	switch {
	case ferr != nil:
		return envelope.Failure("copy", ferr), true
	case terr != nil:
		return envelope.Failure("copy", terr), true
	case r.Remote == nil:
		return envelope.Failure("copy", noggin.NewError(noggin.CodeNoProvider, noggin.F("scheme", "http"), noggin.F("location", fl))), true
	case !fok || !tok || fb != tb:
		return envelope.Failure("copy", noggin.Usage(noggin.CodeNogginError, 2,
			"copy: both noggins must be on the same server to copy remotely (copy on the server, or between two locations of one server)")), true
	}
	// The answer's options travel: the server bounds the answer, as for
	// every other remote verb.
	fwd := &Request{Verb: "copy", From: String(fn), To: String(tn), MaxBytes: req.MaxBytes, Format: req.Format}
	return r.Remote.Run(ctx, fb, fwd), true
}

// wireArgs names every Arg of a Request in its JSON form.
var wireArgs = []struct {
	name  string
	field func(*Request) *Arg
}{
	{"noggin", func(r *Request) *Arg { return &r.Location }},
	{"path", func(r *Request) *Arg { return &r.Path }},
	{"title", func(r *Request) *Arg { return &r.Title }},
	{"text", func(r *Request) *Arg { return &r.Text }},
	{"state", func(r *Request) *Arg { return &r.State }},
	{"before", func(r *Request) *Arg { return &r.Before }},
	{"after", func(r *Request) *Arg { return &r.After }},
	{"into", func(r *Request) *Arg { return &r.Into }},
	{"goto", func(r *Request) *Arg { return &r.Goto }},
	{"done", func(r *Request) *Arg { return &r.Done }},
	{"open", func(r *Request) *Arg { return &r.Open }},
	{"force", func(r *Request) *Arg { return &r.Force }},
	{"closeAll", func(r *Request) *Arg { return &r.CloseAll }},
	{"recursive", func(r *Request) *Arg { return &r.Recursive }},
	{"noChildren", func(r *Request) *Arg { return &r.NoChildren }},
	{"withSiblings", func(r *Request) *Arg { return &r.WithSiblings }},
	{"withDescendants", func(r *Request) *Arg { return &r.WithDescendants }},
	{"withAll", func(r *Request) *Arg { return &r.WithAll }},
	{"withNotes", func(r *Request) *Arg { return &r.WithNotes }},
	{"from", func(r *Request) *Arg { return &r.From }},
	{"to", func(r *Request) *Arg { return &r.To }},
	{"placementKind", func(r *Request) *Arg { return &r.PlacementKind }},
	{"anchor", func(r *Request) *Arg { return &r.Anchor }},
	{"query", func(r *Request) *Arg { return &r.Query }},
	{"under", func(r *Request) *Arg { return &r.Under }},
	{"limit", func(r *Request) *Arg { return &r.Limit }},
	{"agent", func(r *Request) *Arg { return &r.Agent }},
	{"forget", func(r *Request) *Arg { return &r.Forget }},
	{"by", func(r *Request) *Arg { return &r.By }},
	{"since", func(r *Request) *Arg { return &r.Since }},
	{"ifRevision", func(r *Request) *Arg { return &r.IfRevision }},
	{"window", func(r *Request) *Arg { return &r.Window }},
	{"maxBytes", func(r *Request) *Arg { return &r.MaxBytes }},
	{"format", func(r *Request) *Arg { return &r.Format }},
}

type wireRequest struct {
	Verb        string                     `json:"verb"`
	Args        map[string]json.RawMessage `json:"args,omitempty"`
	Positionals []string                   `json:"positionals,omitempty"`
}

// MarshalJSON is the request's wire form for a remote run: the verb, the
// given arguments by name (a given null stays null) and the positionals.
func (req *Request) MarshalJSON() ([]byte, error) {
	w := wireRequest{Verb: req.Verb, Positionals: req.Positionals}
	for _, a := range wireArgs {
		arg := a.field(req)
		if !arg.Given {
			continue
		}
		b, err := codec.AppendJSONValue(nil, arg.Value) // keeps a lone surrogate
		if err != nil {
			return nil, err
		}
		if w.Args == nil {
			w.Args = map[string]json.RawMessage{}
		}
		w.Args[a.name] = b
	}
	return json.Marshal(w)
}

// Fingerprint identifies the request (not its ID) for its request id: the
// first 16 bytes of the SHA-256 of its wire form, in hex. A retry has the
// fingerprint of its first try; a different request under a recorded id
// is refused (request-id-reused).
func (req *Request) Fingerprint() string {
	b, err := req.MarshalJSON()
	if err != nil { // a value MarshalJSON cannot write: no fingerprint, any id matches
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// UnmarshalJSON reads the wire form MarshalJSON writes; an argument name it
// does not know is an error (a client newer than the server).
func (req *Request) UnmarshalJSON(b []byte) error {
	var w wireRequest
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*req = Request{Verb: w.Verb, Positionals: w.Positionals}
	for name, raw := range w.Args {
		var field func(*Request) *Arg
		for _, a := range wireArgs {
			if a.name == name {
				field = a.field
			}
		}
		if field == nil {
			return fmt.Errorf("unknown request argument %q", name)
		}
		v, err := codec.DecodeJSONValue(raw)
		if err != nil {
			return err
		}
		*field(req) = Arg{Given: true, Value: v}
	}
	if w.Verb == "" {
		return errors.New("request without verb")
	}
	return nil
}
