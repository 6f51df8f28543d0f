package request_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/noggin-go/noggin/core/request"
)

// BenchmarkRunShow measures the request layer around one show on a small
// file noggin: the CLI form (a Request) and the tool-call form (JSON).
func BenchmarkRunShow(b *testing.B) {
	file := writeFixture(b, fixture)
	r := testRunner(b)
	b.Run("request", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r.Run(context.Background(), &request.Request{Verb: "show", Location: request.String(file), Path: request.String("/1/1")})
		}
	})
	raw, _ := json.Marshal(map[string]any{"noggin": file, "path": "/1/1"})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r.RunJSON(context.Background(), "noggin_show", raw)
		}
	})
}
