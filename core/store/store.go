// Package store opens noggins by location: location resolution, the file
// provider (YAML/JSON files, the original tool's lock, atomic durable
// writes, change detection) and the memory provider.
package store

import (
	"time"

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
	// LockTimeout defaults to 5s.
	LockTimeout time.Duration
	// PollInterval is how often Watch checks the file for external
	// changes; defaults to 200ms.
	PollInterval time.Duration
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
// paths to the file provider).
func Open(location string, o Options) (noggin.Store, error) { panic("TODO") }

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
type Cache struct{ opts Options }

// NewCache returns an empty cache opening with o.
func NewCache(o Options) *Cache { return &Cache{opts: o} }

// Open returns the cached store for location, opening it on first use.
func (c *Cache) Open(location string) (noggin.Store, error) { panic("TODO") }
