package codec

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/noggin-go/noggin/core/sampledoc"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

// Golden files of a generated document in both encodings: any change of
// the writers (or of the generator) shows up here. Regenerate with
// -update. Each golden also loads back to the document.
func TestGoldenGenerated(t *testing.T) {
	doc := sampledoc.Doc(60, 2026)
	for _, tc := range []struct {
		file   string
		encode func() []byte
	}{
		{"gen-60.yaml", func() []byte { return EncodeYAML(doc) }},
		{"gen-60.json", func() []byte { return EncodeJSON(doc) }},
	} {
		path := filepath.Join("testdata", "golden", tc.file)
		got := tc.encode()
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: output changed:\n%s", tc.file, lineDiff(string(want), string(got)))
		}
		decode := DecodeYAML
		if filepath.Ext(tc.file) == ".json" {
			decode = DecodeJSON
		}
		back, err := decode(want)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, doc) {
			t.Errorf("%s: %s", tc.file, deepDiff("doc", reflect.ValueOf(doc), reflect.ValueOf(back)))
		}
	}
}
