package server_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWebView: the page and its assets, with their security headers, for
// anyone (they hold no noggin data); List, like every call, needs the token.
func TestWebView(t *testing.T) {
	ts := startServer(t, "", withToken("tok"))
	if err := os.WriteFile(filepath.Join(ts.root, "secret-plans.yaml"), []byte("schemaVersion: 1\nactive: null\nitems: []\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct {
		name, method, path, auth string
		status                   int
		contentType, body        string
	}{
		{"the list page", "GET", "/ui/", "", 200, "text/html; charset=utf-8", `<script type="module" src="/ui/assets/app.js">`},
		{"a noggin's page is the same page", "GET", "/ui/secret-plans.yaml", "", 200, "text/html; charset=utf-8", `<link rel="stylesheet" href="/ui/assets/app.css">`},
		{"a nested name too", "GET", "/ui/team/a%20b.yaml", "", 200, "text/html; charset=utf-8", "<noscript>"},
		{"the script", "GET", "/ui/assets/app.js", "", 200, "text/javascript; charset=utf-8", "sessionStorage"},
		{"the style", "GET", "/ui/assets/app.css", "", 200, "text/css; charset=utf-8", "prefers-color-scheme: dark"},
		{"no other asset", "GET", "/ui/assets/x.js", "", 404, "", ""},
		{"/ui goes to /ui/", "GET", "/ui", "", 301, "", ""},
		{"List without the token is refused", "POST", "/noggin.v1.NogginService/List", "", 401, "", "unauthenticated"},
		{"List with it names the noggins", "POST", "/noggin.v1.NogginService/List", "Bearer tok", 200, "application/json", `{"names":["secret-plans.yaml"]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, ts.url+tc.path, strings.NewReader("{}"))
			if err != nil {
				t.Fatal(err)
			}
			if tc.method == "POST" {
				req.Header.Set("Content-Type", "application/json")
			}
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, err := noRedirect.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.body) {
				t.Fatalf("%d %.200q; want %d and %q", resp.StatusCode, body, tc.status, tc.body)
			}
			if tc.contentType != "" && resp.Header.Get("Content-Type") != tc.contentType {
				t.Errorf("Content-Type %q", resp.Header.Get("Content-Type"))
			}
			if strings.HasPrefix(tc.path, "/ui") {
				for h, want := range map[string]string{
					"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
					"X-Content-Type-Options":  "nosniff",
					"X-Frame-Options":         "DENY",
					"Referrer-Policy":         "no-referrer",
				} {
					if got := resp.Header.Get(h); got != want {
						t.Errorf("%s: %q, want %q", h, got, want)
					}
				}
				if strings.Contains(string(body), "secret-plans") {
					t.Error("the page holds noggin data")
				}
			}
		})
	}
}

// TestWebViewHost: without a token, the page is served to loopback host
// names only, like every call (DNS rebinding).
func TestWebViewHost(t *testing.T) {
	ts := startServer(t, "")
	for host, want := range map[string]int{"": 200, "localhost:1": 200, "evil.example:80": 403} {
		req, _ := http.NewRequest("GET", ts.url+"/ui/", nil)
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %q: %d, want %d", host, resp.StatusCode, want)
		}
	}
}
