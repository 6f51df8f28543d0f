// Package ui serves the web view of noggin-rpc: a page that shows and
// changes the served noggins through the server's public RPC API (its
// sources are under src/, bundled into static/app.js by make gen).
package ui

import (
	_ "embed" // the page and its assets
	"net/http"
)

var (
	//go:embed static/index.html
	page []byte
	//go:embed static/app.js
	script []byte
	//go:embed static/app.css
	style []byte
)

// policy is the page's Content-Security-Policy: its own script and style
// only (no inline script, no eval), calls to its own origin, no framing.
const policy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the web view under /ui/: its two assets, and the page
// (index.html) for /ui/ and every /ui/NAME.
func Handler() http.Handler {
	mux := http.NewServeMux()
	file := func(body []byte, contentType string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", contentType)
			w.Header().Set("Cache-Control", "no-cache")
			_, _ = w.Write(body)
		}
	}
	mux.Handle("GET /ui/assets/app.js", file(script, "text/javascript; charset=utf-8"))
	mux.Handle("GET /ui/assets/app.css", file(style, "text/css; charset=utf-8"))
	mux.Handle("GET /ui/assets/", http.NotFoundHandler())
	mux.Handle("GET /ui/", file(page, "text/html; charset=utf-8"))
	mux.Handle("GET /ui", http.RedirectHandler("/ui/", http.StatusMovedPermanently))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", policy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		mux.ServeHTTP(w, r)
	})
}
