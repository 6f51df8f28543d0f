package noggin

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// TimeLayout is the timestamp format of createdAt and notes
// (JavaScript toISOString: UTC, milliseconds, trailing Z).
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Stamp formats t as a noggin timestamp.
func Stamp(t time.Time) string { return t.UTC().Format(TimeLayout) }

// NewEngine returns an engine with the real clock and random keys.
func NewEngine() *Engine { return &Engine{Now: time.Now, Keys: RandomKeys{}} }

// EngineFromEnv builds the engine of a binary: the real clock and random
// keys, unless getenv("NOGGIN_CLOCK") names a fixed RFC 3339 instant and/or
// getenv("NOGGIN_KEYS") is "sequential". A malformed value is an error.
func EngineFromEnv(getenv func(string) string) (*Engine, error) {
	e := NewEngine()
	if v := getenv("NOGGIN_CLOCK"); v != "" {
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			return nil, Usage(CodeNogginError, 2, fmt.Sprintf("NOGGIN_CLOCK: %q is not an RFC 3339 instant", v))
		}
		e.Now = func() time.Time { return t }
	}
	switch v := getenv("NOGGIN_KEYS"); v {
	case "", "random":
	case "sequential":
		e.Keys = SequentialKeys{}
	default:
		return nil, Usage(CodeNogginError, 2, fmt.Sprintf("NOGGIN_KEYS: %q is not \"sequential\" or \"random\"", v))
	}
	return e, nil
}

// now reads the engine's clock.
func (e *Engine) now() time.Time {
	if e == nil || e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

// newKeys returns n fresh keys for items added to doc.
func (e *Engine) newKeys(doc *Document, now time.Time, n int) []string {
	if e == nil || e.Keys == nil {
		return RandomKeys{}.NewKeys(doc, now, n)
	}
	return e.Keys.NewKeys(doc, now, n)
}

// keyPrefix is "i-YYYYMMDD-HHMMSS-" for the UTC time of now.
func keyPrefix(now time.Time) string { return "i-" + now.UTC().Format("20060102-150405") + "-" }

// RandomKeys generates i-YYYYMMDD-HHMMSS-hhhhhh keys with 3 random bytes.
// A key that doc already has, or that the same call already gave, is
// drawn again: 3 bytes are 16.7 million keys a second, and a team adding
// hundreds of items a second to one noggin meets a repeat now and then.
type RandomKeys struct{}

// NewKeys implements KeySource.
func (RandomKeys) NewKeys(doc *Document, now time.Time, n int) []string {
	prefix := keyPrefix(now)
	buf := make([]byte, 3*n)
	randomBytes(buf)
	keys := make([]string, n)
	for i := range keys {
		k := prefix + hex.EncodeToString(buf[3*i:3*i+3])
		for (doc != nil && IndexOf(doc, k) >= 0) || slices.Contains(keys[:i], k) {
			var b [3]byte
			randomBytes(b[:])
			k = prefix + hex.EncodeToString(b[:])
		}
		keys[i] = k
	}
	return keys
}

// randomBytes fills b with random bytes (crypto/rand; tests replace it).
var randomBytes = func(b []byte) {
	if _, err := rand.Read(b); err != nil {
		panic(err) //nolint:forbidigo // a broken invariant: crypto/rand.Read never fails on supported platforms
	}
}

// SequentialKeys generates i-YYYYMMDD-HHMMSS-hhhhhh keys whose hex suffix
// continues after the largest suffix of the document's generated-looking
// keys (starting at 000001), so separate processes continue one sequence.
type SequentialKeys struct{}

// NewKeys implements KeySource.
func (SequentialKeys) NewKeys(doc *Document, now time.Time, n int) []string {
	var last uint64
	if doc != nil {
		for _, it := range doc.Items {
			if v, ok := keySuffix(it.Key); ok && v > last {
				last = v
			}
		}
	}
	prefix := keyPrefix(now)
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("%s%06x", prefix, last+uint64(i)+1)
	}
	return keys
}

// keySuffix returns the hex suffix of a key matching
// ^i-\d{8}-\d{6}-[0-9a-f]{6,15}$.
func keySuffix(k string) (uint64, bool) {
	// Six hex digits or more: the sequence goes on past ffffff.
	if len(k) < 24 || len(k) > 18+15 || k[0] != 'i' || k[1] != '-' || k[10] != '-' || k[17] != '-' {
		return 0, false
	}
	for i := 2; i < 17; i++ {
		if i != 10 && (k[i] < '0' || k[i] > '9') {
			return 0, false
		}
	}
	for i := 18; i < len(k); i++ {
		c := k[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return 0, false
		}
	}
	v, err := strconv.ParseUint(k[18:], 16, 64)
	return v, err == nil
}
