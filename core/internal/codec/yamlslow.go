package codec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/noggin-go/noggin/core/jstext"
	"github.com/noggin-go/noggin/core/noggin"
)

// parseError is a parser failure; DecodeYAML/DecodeJSON turn it into an
// invalid-document error with the "failed to parse …" wording.
type parseError struct{ msg string }

func (e *parseError) Error() string { return e.msg }

func parseErrorf(format string, args ...any) error {
	return &parseError{msg: fmt.Sprintf(format, args...)}
}

// parseYAMLGeneric parses YAML text with the general parser and converts the
// single document into a generic value (see value.go). A stream without a
// document gives (nil, false, nil).
func parseYAMLGeneric(data []byte) (v any, present bool, err error) {
	v, present, err = parseYAMLOnce(data)
	if err != nil && strings.Contains(err.Error(), "invalid Unicode character escape code") {
		if w, ok := parseSurrogates(data); ok {
			return w, true, nil
		}
	}
	return v, present, err
}

// parseSurrogates parses a document whose double-quoted scalars spell lone
// surrogates ("\uD800"), which js-yaml reads and the general parser
// refuses: each such escape is read as a private-use character, twice with
// two sets of them, and turned back into the surrogate (WTF-8). The two
// readings agree unless such an escape stood where a backslash is just a
// backslash (a plain or single-quoted scalar): then ok is false.
func parseSurrogates(data []byte) (v any, ok bool) {
	var got [2]any
	for i, base := range []rune{0xF0000, 0xF1000} {
		marked, ok := markSurrogates(data, base)
		if !ok {
			return nil, false
		}
		v, present, err := parseYAMLOnce(marked)
		if err != nil || !present {
			return nil, false
		}
		got[i] = unmarkSurrogates(v, base)
	}
	return got[0], reflect.DeepEqual(got[0], got[1])
}

// markSurrogates rewrites each \uXXXX or \UXXXXXXXX escape of a surrogate
// as the escape of base+(unit-0xD800); ok is false when the text may hold
// such characters already.
func markSurrogates(data []byte, base rune) ([]byte, bool) {
	lower := bytes.ToLower(data)
	if bytes.Contains(data, []byte("\xf3\xb0")) || bytes.Contains(data, []byte("\xf3\xb1")) ||
		bytes.Contains(lower, []byte(`\u000f0`)) || bytes.Contains(lower, []byte(`\u000f1`)) {
		return nil, false
	}
	out := make([]byte, 0, len(data)+64)
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c != '\\' || i+1 >= len(data) {
			out = append(out, c)
			continue
		}
		n := map[byte]int{'u': 4, 'U': 8}[data[i+1]]
		if n > 0 && i+2+n <= len(data) {
			if r, ok := hexVal(string(data[i+2 : i+2+n])); ok && jstext.IsSurrogate(r) {
				out = fmt.Appendf(out, "\\U%08X", base+r-0xD800)
				i += 1 + n
				continue
			}
		}
		out = append(out, c, data[i+1]) // an escape, or an escaped backslash
		i++
	}
	return out, true
}

// unmarkSurrogates turns markSurrogates' characters in the strings of v
// back into surrogates.
func unmarkSurrogates(v any, base rune) any {
	str := func(s string) string {
		if !strings.ContainsFunc(s, func(r rune) bool { return base <= r && r < base+0x800 }) {
			return s
		}
		var b []byte
		for _, r := range s {
			if base <= r && r < base+0x800 {
				r = 0xD800 + r - base
			}
			b = jstext.AppendUnit(b, r)
		}
		return string(b)
	}
	switch x := v.(type) {
	case string:
		return str(x)
	case []any:
		for i := range x {
			x[i] = unmarkSurrogates(x[i], base)
		}
	case noggin.Map:
		for i := range x {
			x[i].Name = str(x[i].Name)
			x[i].Value = unmarkSurrogates(x[i].Value, base)
		}
	}
	return v
}

func parseYAMLOnce(data []byte) (v any, present bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, present, err = nil, false, parseErrorf("%v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(yaml12Directive(data)))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, false, nil
		}
		return nil, false, parseErrorf("%s", cleanYAMLError(err))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, false, parseErrorf("expected a single document in the stream, but found more")
	} else if !errors.Is(err, io.EOF) {
		return nil, false, parseErrorf("%s", cleanYAMLError(err))
	}
	c := &nodeConv{budget: 4*len(data) + 10000}
	v, err = c.value(&root, 0)
	return v, true, err
}

// yaml12Directive rewrites a leading "%YAML 1.2" directive (which the
// general parser, a YAML 1.1 parser, refuses) to "%YAML 1.1"; the document
// is read with the original tool's (YAML 1.2 core schema) rules anyway.
func yaml12Directive(data []byte) []byte {
	for pos := 0; pos < len(data); {
		end := bytes.IndexByte(data[pos:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += pos
		}
		line := data[pos:end]
		t := bytes.TrimSpace(line)
		switch {
		case len(t) == 0 || t[0] == '#':
		case bytes.HasPrefix(line, []byte("%YAML 1.2")) && (len(line) == 9 || line[9] == ' ' || line[9] == '\t' || line[9] == '\r'):
			out := bytes.Clone(data)
			out[pos+8] = '1'
			return out
		case t[0] == '%':
		default:
			return data
		}
		pos = end + 1
	}
	return data
}

func cleanYAMLError(err error) string {
	return strings.TrimPrefix(err.Error(), "yaml: ")
}

type nodeConv struct {
	budget int
}

const maxDepth = 1000

func (c *nodeConv) value(n *yaml.Node, depth int) (any, error) {
	c.budget--
	if c.budget < 0 {
		return nil, parseErrorf("document too large after alias expansion")
	}
	if depth > maxDepth {
		return nil, parseErrorf("maximum nesting depth exceeded (%d:%d)", n.Line, n.Column)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.value(n.Content[0], depth+1)
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, parseErrorf("unidentified alias (%d:%d)", n.Line, n.Column)
		}
		return c.value(n.Alias, depth+1)
	case yaml.ScalarNode:
		return c.scalar(n)
	case yaml.SequenceNode:
		if err := c.collectionTag(n); err != nil {
			return nil, err
		}
		out := make([]any, 0, len(n.Content))
		for _, e := range n.Content {
			v, err := c.value(e, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		if err := c.collectionTag(n); err != nil {
			return nil, err
		}
		return c.mapping(n, depth)
	}
	return nil, parseErrorf("unexpected node (%d:%d)", n.Line, n.Column)
}

func (c *nodeConv) collectionTag(n *yaml.Node) error {
	if n.Style&yaml.TaggedStyle == 0 {
		return nil
	}
	switch n.Tag {
	case "!!map", "!!seq", "!!set", "!!omap", "!!pairs":
		return nil
	}
	return parseErrorf("unknown tag !<%s> (%d:%d)", n.Tag, n.Line, n.Column)
}

func (c *nodeConv) mapping(n *yaml.Node, depth int) (any, error) {
	m := make(noggin.Map, 0, len(n.Content)/2)
	var overridable map[string]bool
	var index map[string]int // name → position, for large mappings
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if kn.Kind == yaml.ScalarNode && kn.Style == 0 && kn.Value == "<<" {
			// merge key
			src, err := c.value(vn, depth+1)
			if err != nil {
				return nil, err
			}
			var sources []noggin.Map
			switch s := src.(type) {
			case noggin.Map:
				sources = []noggin.Map{s}
			case []any:
				for _, e := range s {
					em, ok := e.(noggin.Map)
					if !ok {
						return nil, parseErrorf("cannot merge mappings; the provided source object is unacceptable (%d:%d)", vn.Line, vn.Column)
					}
					sources = append(sources, em)
				}
			default:
				return nil, parseErrorf("cannot merge mappings; the provided source object is unacceptable (%d:%d)", vn.Line, vn.Column)
			}
			for _, s := range sources {
				for _, f := range s {
					if _, has := get(m, f.Name); has {
						continue
					}
					if index != nil {
						index[f.Name] = len(m)
					}
					m = append(m, f)
					if overridable == nil {
						overridable = map[string]bool{}
					}
					overridable[f.Name] = true
				}
			}
			continue
		}
		kv, err := c.value(kn, depth+1)
		if err != nil {
			return nil, err
		}
		key := jstext.String(kv)
		v, err := c.value(vn, depth+1)
		if err != nil {
			return nil, err
		}
		j := -1
		if index == nil && len(m) >= 16 {
			index = make(map[string]int, len(n.Content)/2)
			for k := range m {
				index[m[k].Name] = k
			}
		}
		if index != nil {
			if k, ok := index[key]; ok {
				j = k
			}
		} else {
			for k := range m {
				if m[k].Name == key {
					j = k
					break
				}
			}
		}
		if j >= 0 {
			if !overridable[key] {
				return nil, parseErrorf("duplicated mapping key (%d:%d)", kn.Line, kn.Column)
			}
			m[j].Value = v
			delete(overridable, key)
		} else {
			if index != nil {
				index[key] = len(m)
			}
			m = append(m, noggin.Field{Name: key, Value: v})
		}
	}
	return jsOrder(m), nil
}

func (c *nodeConv) scalar(n *yaml.Node) (any, error) {
	if n.Style&yaml.TaggedStyle == 0 {
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			return n.Value, nil
		}
		return resolvePlain(n.Value), nil
	}
	bad := func() (any, error) {
		return nil, parseErrorf("cannot resolve a node with !<%s> explicit tag (%d:%d)", n.Tag, n.Line, n.Column)
	}
	switch n.Tag {
	case "!!str", "!!binary":
		return n.Value, nil
	case "!!timestamp":
		if !isTimestamp(n.Value) {
			return bad()
		}
		return n.Value, nil
	case "!!null":
		switch n.Value {
		case "", "~", "null", "Null", "NULL":
			return nil, nil
		}
		return bad()
	case "!!bool":
		if v, ok := resolvePlain(n.Value).(bool); ok {
			return v, nil
		}
		return bad()
	case "!!int":
		if isYAMLInt(n.Value) {
			return noggin.Number(yamlIntValue(n.Value)), nil
		}
		return bad()
	case "!!float":
		if isYAMLFloat(n.Value) {
			return noggin.Number(yamlFloatValue(n.Value)), nil
		}
		if isYAMLInt(n.Value) {
			return noggin.Number(yamlIntValue(n.Value)), nil
		}
		return bad()
	}
	return nil, parseErrorf("unknown tag !<%s> (%d:%d)", n.Tag, n.Line, n.Column)
}
