// Package store opens noggins by location: location resolution, the file
// provider (YAML/JSON files, the original tool's lock, atomic durable
// writes, change detection) and the memory provider.
//
// # Locations
//
// A location matching ^[A-Za-z][A-Za-z0-9+.-]*:// is a URI routed by its
// lower-cased scheme (file; memory with Options.Memory; anything else is
// no-provider). Everything else is a bare path for the file provider: "~"
// and "~/" expand to the home directory, relative paths are made absolute
// against the working directory. "file://" URLs follow the file-URL rules
// of docs/file-format.md, including the fallback for file://~/x and
// file://./x. Describe returns the location verbatim.
//
// # The file provider
//
// A missing file is the empty document; nothing is created by reads. A
// store caches the parsed document and, before each Load or Update, checks
// the file's stamp (size, mtime, ctime, inode, device); when the stamp is
// younger than the file system's timestamp granularity allows to trust, the
// bytes are compared too. Files ending in .json (any case) are read and
// written as JSON, everything else as YAML.
//
// Writes are serialised per store, then take the original tool's lock
// (<file>.lock directory with a pid file; stale when the holder is dead or
// the lock is 30 s old; lock-timeout after Options.LockTimeout), re-read
// the file (a file that does not parse is never overwritten), apply, write
// <file>.tmp-<pid>-<ms>, fsync it, rename it over the file and fsync the
// directory. Differences from the original, all interoperable:
//   - missing parent directories are created (before the lock);
//   - where the kernel allows (Linux renameat2 RENAME_NOREPLACE) the lock
//     directory appears atomically with its pid file, and it is renamed
//     away before being deleted, so a writer killed at any moment never
//     leaves a lock without pid file (which would block every writer);
//   - temporary files and lock directories left by dead writers are
//     removed by the next write;
//   - OS errors are worded like Node's ("EISDIR: illegal operation on a
//     directory, read").
//
// Watch delivers change events of the store's own writes (queued before
// Update returns) and of external changes (noticed by Load, or, while
// anyone watches, by the file's change notifications, see startPolling).
// External writes that land before the re-read arrive as one event.
//
// # Sandbox
//
// With Options.Root, locations are confined to that directory: relative
// paths resolve inside it, absolute paths and file:// URLs only when inside
// it, "~" is refused, and every file operation goes through an os.Root, so
// ".." and symlinks pointing outside cannot escape; a symlink is judged by
// where it leads, so an absolute one to a place inside the root works. A
// refused location is location-refused (exit 2, data {location, detail}).
// Errors name the file relative to the root (data.path, OS messages), so a
// remote client never learns the server's directories.
package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/noggin-go/noggin/core/jstext"
	"github.com/noggin-go/noggin/core/noggin"
)

// DefaultLocation is the location used when neither --noggin nor $NOGGIN is set.
const DefaultLocation = "~/.noggin.yaml"

// Options configure how locations are opened.
type Options struct {
	// Root, when non-empty, confines every location to this directory
	// (resolved with os.Root: "..", absolute paths outside it and symlinks
	// cannot escape; "~" is not expanded). A refused location is
	// location-refused.
	Root string
	// Memory registers the memory:// provider (tests, embedding).
	Memory bool
	// LockTimeout is how long a write waits for the cross-process lock
	// before lock-timeout; defaults to 5s. (The message always says
	// 5000ms, as the catalog does.)
	LockTimeout time.Duration
	// PollInterval is how often a watched file is checked for external
	// changes when the system gives no change notifications (ten times
	// as long a safety net when it does); defaults to 200ms. Without
	// watchers, changes are noticed by the check before every Load and
	// Update.
	PollInterval time.Duration
	// MapFiles lets the file provider map noggin files into memory (read
	// only, Linux) instead of reading them into fresh memory, which a
	// short-lived process pays for page by page. Mappings are never
	// released, so it is meant for one-shot processes such as the CLI.
	MapFiles bool
	// Observe, when set, is told how long a write waited for the noggin's
	// lock ("lock-wait") and how long the whole write took ("write"), for
	// a server's metrics.
	Observe func(step string, d time.Duration)
}

// Resolve picks the location: flag if non-empty, else $NOGGIN if non-empty,
// else DefaultLocation.
func Resolve(flag string, getenv func(string) string) string {
	if flag != "" {
		return flag
	}
	if v := getenv("NOGGIN"); v != "" {
		return v
	}
	return DefaultLocation
}

// Open opens the noggin at location (URI schemes route to providers; bare
// paths to the file provider) and loads it once, so a location whose file
// cannot be read or parsed fails here (where, copy). A one-shot store
// (Options.MapFiles) reads its file at the caller's first look instead,
// which may be lazy (LazyLoader): a one-shot caller looks at once.
//
// Failures: no-location (empty), no-provider (unknown scheme, or memory://
// without Options.Memory), location-refused (outside Options.Root), io,
// invalid-document, unsupported-schema, invalid-note.
//
// ctx bounds the first load (cancelled when it is done first).
func Open(ctx context.Context, location string, o Options) (noggin.Store, error) {
	r, err := routeLocation(location, o.Memory)
	if err != nil {
		return nil, err
	}
	if r.scheme == "memory" {
		return openMemory(r.label), nil
	}
	var s *fileStore
	if o.Root != "" {
		s, err = openInRoot(location, r.path, o)
	} else {
		s, err = openFile(location, r.path, o)
	}
	if err != nil {
		return nil, err
	}
	// A one-shot process reads the file at its first look, which may be a
	// lazy one (LoadLazy): the caller looks at once.
	if o.MapFiles {
		return s, nil
	}
	if _, err := s.Load(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// openInRoot resolves a file path inside o.Root: relative paths against the
// root, absolute paths only when they lie inside it; "~" is not expanded.
// All I/O then goes through an os.Root, so ".." and symlinks cannot escape.
func openInRoot(location, p string, o Options) (*fileStore, error) {
	if p == "" {
		return nil, noggin.NewError(noggin.CodeNoLocation)
	}
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`) {
		return nil, refusedError(location, "~ is not expanded inside the root directory")
	}
	rootAbs, err := filepath.Abs(o.Root)
	if err != nil {
		return nil, noggin.Wrap(err)
	}
	rel, ok := relToRoot(rootAbs, p)
	if !ok {
		return nil, refusedError(location, "outside the root directory")
	}
	target, err := linkTarget(filepath.Join(rootAbs, rel))
	if err != nil {
		return nil, writeError(err, rootAbs)
	}
	file, ok := relToRoot(rootAbs, target)
	if !ok {
		return nil, refusedError(location, "outside the root directory")
	}
	root, err := os.OpenRoot(rootAbs)
	if err != nil {
		return nil, writeError(err, "")
	}
	// A remote client sees the file as the root names it: relative, never
	// the server's own directories.
	return newFileStore(location, filepath.Join(rootAbs, file), filepath.ToSlash(rel), file, "", rootFS{root, rootAbs}, o), nil
}

// openFile is the store of a file path outside any root. A symlinked
// noggin is the file its link leads to (resolved once, here): writes
// replace the target and leave the link, and the lock and history are
// the target's, so writers through the link and the target exclude
// each other.
func openFile(location, p string, o Options) (*fileStore, error) {
	abs, err := absPath(p)
	if err != nil {
		return nil, err
	}
	target, err := linkTarget(abs)
	if err != nil {
		return nil, writeError(err, "")
	}
	return newFileStore(location, target, abs, target, "", osFS{}, o), nil
}

// relInside returns p relative to dir, or an error if p is outside dir.
func relInside(dir, p string) (string, error) {
	rel, err := filepath.Rel(dir, filepath.Clean(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", errOutside
	}
	return rel, nil
}

var errOutside = errors.New("outside the root")

// Providers lists the registered schemes in registration order.
func Providers(o Options) []noggin.Provider {
	p := []noggin.Provider{{Scheme: "file"}}
	if o.Memory {
		p = append(p, noggin.Provider{Scheme: "memory"})
	}
	return p
}

// Cache keeps opened noggins per location for a long-lived process
// (MCP, RPC). Each cached store notices external file changes before every
// call. A failed open is not cached.
type Cache struct {
	opts    Options
	mu      sync.Mutex
	entries map[string]*cacheEntry
}

type cacheEntry struct {
	ready chan struct{} // closed when the open finished
	store noggin.Store
	err   error
}

// NewCache returns an empty cache opening with o.
func NewCache(o Options) *Cache { return &Cache{opts: o, entries: map[string]*cacheEntry{}} }

// Open returns the cached store for location (trimmed of surrounding white
// space, which is also what its Describe returns), opening it on first
// use. Concurrent first opens of one location share one open. A cached
// file store re-reads its file whenever it changed, so it never serves a
// stale document.
//
// A caller whose ctx is done while it waits for another's open gives up
// with cancelled; the shared open itself is not cut short by one caller.
func (c *Cache) Open(ctx context.Context, location string) (noggin.Store, error) {
	key := jstext.TrimSpace(location)
	c.mu.Lock()
	if e, ok := c.entries[key]; ok {
		c.mu.Unlock()
		select { // a failed open was dropped; its waiters share the error
		case <-e.ready:
			return e.store, e.err
		case <-ctx.Done():
			return nil, noggin.Cancelled(ctx)
		}
	}
	if err := noggin.Cancelled(ctx); err != nil {
		c.mu.Unlock()
		return nil, err
	}
	e := &cacheEntry{ready: make(chan struct{})}
	c.entries[key] = e
	c.mu.Unlock()

	e.store, e.err = Open(context.WithoutCancel(ctx), key, c.opts)
	if e.err != nil {
		c.mu.Lock()
		delete(c.entries, key)
		c.mu.Unlock()
	}
	close(e.ready)
	return e.store, e.err
}

// Providers lists the location schemes the cache's stores can open.
func (c *Cache) Providers() []noggin.Provider { return Providers(c.opts) }

// Opener opens every location anew with Options (one-shot processes such
// as the CLI); *Cache is the opener of long-lived servers.
type Opener struct{ Options Options }

// Open opens location with o.Options.
func (o Opener) Open(ctx context.Context, location string) (noggin.Store, error) {
	return Open(ctx, location, o.Options)
}

// Providers lists the location schemes o can open.
func (o Opener) Providers() []noggin.Provider { return Providers(o.Options) }

// Pinned returns st with Load answering doc, a document st returned: a
// verb then reads exactly the document its arguments were checked on,
// with no second look at the file. Update goes to st (which re-reads the
// file under the lock).
func Pinned(st noggin.Store, doc *noggin.Document) noggin.Store { return pinned{st, doc} }

type pinned struct {
	noggin.Store
	doc *noggin.Document
}

func (p pinned) Load(ctx context.Context) (*noggin.Document, error) {
	if err := noggin.Cancelled(ctx); err != nil {
		return nil, err
	}
	return p.doc, nil
}

// relToRoot is p relative to the root directory rootAbs, or false when p
// is outside it.
func relToRoot(rootAbs, p string) (string, bool) {
	if !filepath.IsAbs(p) {
		rel := filepath.Clean(p)
		return rel, rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	rel, err := relInside(rootAbs, p)
	if err != nil {
		// The root itself may be reached through a symlink (/tmp on macOS).
		if real, rerr := filepath.EvalSymlinks(rootAbs); rerr == nil {
			rel, err = relInside(real, p)
		}
	}
	return rel, err == nil
}

// FilePath is the absolute path of the noggin file that location names (a
// path, "~" expanded, or a file: URI; a symlink's target); any other
// scheme is no-provider.
func FilePath(location string) (string, error) {
	r, err := routeLocation(location, false)
	if err != nil {
		return "", err
	}
	abs, err := absPath(r.path)
	if err != nil {
		return "", err
	}
	target, err := linkTarget(abs)
	if err != nil {
		return "", writeError(err, "")
	}
	return target, nil
}
