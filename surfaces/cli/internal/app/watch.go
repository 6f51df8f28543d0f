package app

import (
	"bytes"
	"os"
	"time"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
)

// remotePoll is how often show --watch asks a remote noggin for its view
// (a remote noggin sends no change notifications to the CLI).
const remotePoll = time.Second

// Terminal control for a redraw without flicker: go home, overwrite each
// line and clear what is left of it, then clear below the last line.
const (
	termHome      = "\x1b[H"
	termClear     = "\x1b[2J"
	termClearLine = "\x1b[K"
	termClearDown = "\x1b[J"
)

// watchShow runs show --watch: the view, drawn again on every change of
// the noggin until Ctrl-C (exit 0). Changes come from the store's watch
// (file notifications: no work while nothing changes); each one runs the
// show request again, and a frame is drawn only when its envelope differs
// from the last one. With --json each frame is one envelope on one line.
func (r *runner) watchShow() int {
	res := r.runner.Run(r.ctx, r.req)
	if !res.Envelope.OK() {
		return r.failEnv(res.Envelope)
	}
	longLived()
	tty := isTerminal(r.stdout)
	if tty && !r.json {
		r.write(r.stdout, []byte(termHome+termClear))
	}
	last := res.Envelope.Encode()
	r.draw(res, tty)
	var changes <-chan struct{}
	if res.Store != nil {
		changes = notify(r.ctx.Done(), res.Store.Watch(r.ctx))
	} else {
		changes = tick(r.ctx.Done(), remotePoll)
	}
	for {
		select {
		case <-r.ctx.Done():
			return 0
		case _, ok := <-changes:
			if !ok {
				return 0
			}
		}
		res = r.runner.Run(r.ctx, r.req)
		if r.ctx.Err() != nil {
			return 0
		}
		enc := res.Envelope.Encode()
		if bytes.Equal(enc, last) {
			continue
		}
		last = enc
		r.draw(res, tty)
	}
}

// draw prints one frame: an envelope line (--json), a redraw in place (a
// terminal) or the view followed by an empty line (a pipe or file).
func (r *runner) draw(res request.Result, tty bool) {
	env := res.Envelope
	if r.json {
		r.write(r.stdout, env.Line())
		return
	}
	var body bytes.Buffer
	if env.OK() {
		r.human(&body, res)
	} else {
		body.WriteString("noggin: " + noggin.Safe(env.Message()) + "\n")
	}
	status := "(watching " + noggin.Safe(location(r, res)) + "; Ctrl-C to stop)\n"
	if !tty {
		body.WriteString(status + "\n")
		r.write(r.stdout, body.Bytes())
		return
	}
	var f bytes.Buffer
	f.WriteString(termHome)
	for _, line := range bytes.SplitAfter(append(body.Bytes(), status...), []byte{'\n'}) {
		if len(line) == 0 {
			continue
		}
		f.Write(bytes.TrimSuffix(line, []byte{'\n'}))
		f.WriteString(termClearLine + "\n")
	}
	f.WriteString(termClearDown)
	r.write(r.stdout, f.Bytes())
}

// location names the watched noggin as the user gave it.
func location(r *runner, res request.Result) string {
	if res.Store != nil {
		return res.Store.Describe()
	}
	if s, ok := r.req.Location.Value.(string); ok && r.req.Location.Given {
		return s
	}
	return r.runner.DefaultLocation()
}

// notify turns store events into change signals.
func notify[T any](done <-chan struct{}, events <-chan T) <-chan struct{} {
	c := make(chan struct{}, 1)
	go func() {
		defer close(c)
		for {
			select {
			case <-done:
				return
			case _, ok := <-events:
				if !ok {
					return
				}
				select {
				case c <- struct{}{}:
				default: // one pending signal is enough: the next run sees all
				}
			}
		}
	}()
	return c
}

// tick signals every d until done.
func tick(done <-chan struct{}, d time.Duration) <-chan struct{} {
	c := make(chan struct{}, 1)
	go func() {
		t := time.NewTicker(d)
		defer t.Stop()
		defer close(c)
		for {
			select {
			case <-done:
				return
			case <-t.C:
				select {
				case c <- struct{}{}:
				default:
				}
			}
		}
	}()
	return c
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
