package codec

import (
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/noggin-go/noggin/core/jstext"
	"github.com/noggin-go/noggin/core/noggin"
)

// jsonParser is a small JSON.parse: strict JSON, objects keep insertion
// order with JavaScript semantics (a duplicate key keeps its first position
// and takes the last value; array-index keys are ordered first). With yaml
// set it reads JSON text as the YAML reader does: a duplicate key is an
// error, and a number is a plain scalar (1e400 is the string "1e400").
type jsonParser struct {
	s     string
	i     int
	yaml  bool
	depth int
}

func (p *jsonParser) errAt() error {
	if p.i >= len(p.s) {
		return parseErrorf("Unexpected end of JSON input")
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.i:])
	return parseErrorf("Unexpected token %s in JSON at position %d", string(r), p.i)
}

func (p *jsonParser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func parseJSON(data []byte, yaml bool) (any, error) {
	s := string(data)
	if !utf8.ValidString(s) {
		s = toValidUTF8(s)
	}
	p := &jsonParser{s: s, yaml: yaml}
	p.ws()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.s) {
		return nil, p.errAt()
	}
	return v, nil
}

func (p *jsonParser) value() (any, error) {
	if p.i >= len(p.s) {
		return nil, p.errAt()
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.str()
	case c == 't':
		return p.lit("true", true)
	case c == 'f':
		return p.lit("false", false)
	case c == 'n':
		return p.lit("null", nil)
	case c == '-' || isDec(c):
		return p.number()
	}
	return nil, p.errAt()
}

func (p *jsonParser) lit(word string, v any) (any, error) {
	for k := 0; k < len(word); k++ {
		if p.i >= len(p.s) || p.s[p.i] != word[k] {
			return nil, p.errAt()
		}
		p.i++
	}
	return v, nil
}

func (p *jsonParser) number() (any, error) {
	st := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	if p.i >= len(p.s) || !isDec(p.s[p.i]) {
		return nil, p.errAt()
	}
	if p.s[p.i] == '0' {
		p.i++
	} else {
		for p.i < len(p.s) && isDec(p.s[p.i]) {
			p.i++
		}
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if p.i >= len(p.s) || !isDec(p.s[p.i]) {
			return nil, p.errAt()
		}
		for p.i < len(p.s) && isDec(p.s[p.i]) {
			p.i++
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.i >= len(p.s) || !isDec(p.s[p.i]) {
			return nil, p.errAt()
		}
		for p.i < len(p.s) && isDec(p.s[p.i]) {
			p.i++
		}
	}
	if p.yaml {
		return resolvePlain(p.s[st:p.i]), nil
	}
	f, err := strconv.ParseFloat(p.s[st:p.i], 64)
	if err != nil {
		if !errors.Is(err, strconv.ErrRange) {
			return nil, parseErrorf("invalid number at position %d", st)
		}
	}
	return noggin.Number(jsNumber(f)), nil
}

func (p *jsonParser) str() (string, error) {
	p.i++ // opening quote
	st := p.i
	// fast path: no escapes
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '"' {
			s := p.s[st:p.i]
			p.i++
			return s, nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", p.errAt()
		}
		p.i++
	}
	buf := []byte(p.s[st:p.i])
	for {
		if p.i >= len(p.s) {
			return "", p.errAt()
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return string(buf), nil
		case c < 0x20:
			return "", p.errAt()
		case c != '\\':
			buf = append(buf, c)
			p.i++
			continue
		}
		p.i++
		if p.i >= len(p.s) {
			return "", p.errAt()
		}
		e := p.s[p.i]
		p.i++
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.errAt()
			}
			buf = jstext.AppendUnit(buf, r) // a lone surrogate is kept (WTF-8)
		default:
			p.i--
			return "", p.errAt()
		}
	}
}

func (p *jsonParser) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		p.i = len(p.s)
		return 0, false
	}
	var r rune
	for k := 0; k < 4; k++ {
		c := p.s[p.i]
		var d byte
		switch {
		case isDec(c):
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
		p.i++
	}
	return r, true
}

func (p *jsonParser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return parseErrorf("maximum nesting depth exceeded at position %d", p.i)
	}
	return nil
}

func (p *jsonParser) array() (any, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.i++
	out := []any{}
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return out, nil
	}
	for {
		p.ws()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.ws()
		if p.i >= len(p.s) {
			return nil, p.errAt()
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return out, nil
		default:
			return nil, p.errAt()
		}
	}
}

func (p *jsonParser) object() (any, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.i++
	m := noggin.Map{}
	var index map[string]int
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return m, nil
	}
	for {
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.errAt()
		}
		kpos := p.i
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errAt()
		}
		p.i++
		p.ws()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		pos := -1
		if len(m) < 16 && index == nil {
			for j := range m {
				if m[j].Name == k {
					pos = j
					break
				}
			}
		} else {
			if index == nil {
				index = make(map[string]int, 2*len(m))
				for j := range m {
					index[m[j].Name] = j
				}
			}
			if j, ok := index[k]; ok {
				pos = j
			}
		}
		if pos >= 0 {
			if p.yaml {
				return nil, parseErrorf("duplicated mapping key at position %d", kpos)
			}
			m[pos].Value = v
		} else {
			if index != nil {
				index[k] = len(m)
			}
			m = append(m, noggin.Field{Name: k, Value: v})
		}
		p.ws()
		if p.i >= len(p.s) {
			return nil, p.errAt()
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return jsOrder(m), nil
		default:
			return nil, p.errAt()
		}
	}
}

func toValidUTF8(s string) string {
	b := make([]byte, 0, len(s)+8)
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		b = utf8.AppendRune(b, r)
		s = s[n:]
	}
	return string(b)
}

// ---- writing ----

func appendJSONNumber(b []byte, n noggin.Number) []byte {
	switch n {
	case "NaN", "Infinity", "-Infinity":
		return append(b, "null"...)
	}
	// "-0" is written as is (JSON.stringify would write 0) so that a JSON
	// round trip is stable.
	return append(b, n...)
}

func jsonIndent(b []byte, level int) []byte {
	b = append(b, '\n')
	for i := 0; i < level; i++ {
		b = append(b, ' ', ' ')
	}
	return b
}

func appendJSONValue(b []byte, v any, level int) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		if x {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case noggin.Number:
		return appendJSONNumber(b, x)
	case string:
		return jstext.AppendString(b, x)
	case []any:
		if len(x) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonIndent(b, level+1)
			b = appendJSONValue(b, e, level+1)
		}
		b = jsonIndent(b, level)
		return append(b, ']')
	case noggin.Map:
		if len(x) == 0 {
			return append(b, "{}"...)
		}
		b = append(b, '{')
		for i, f := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonIndent(b, level+1)
			b = jstext.AppendString(b, f.Name)
			b = append(b, ':', ' ')
			b = appendJSONValue(b, f.Value, level+1)
		}
		b = jsonIndent(b, level)
		return append(b, '}')
	}
	return append(b, "null"...)
}

// appendJSONDoc writes the document as JSON.stringify(doc, null, 2).
func appendJSONDoc(b []byte, doc *noggin.Document, flush func([]byte) []byte) []byte {
	b = append(b, '{')
	first := true
	sep := func() {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = jsonIndent(b, 1)
	}
	for _, name := range docOrder(doc) {
		sep()
		b = jstext.AppendString(b, name)
		b = append(b, ':', ' ')
		switch name {
		case fSchemaVersion:
			b = append(b, '1')
		case fActive:
			if doc.Active == "" {
				b = append(b, "null"...)
			} else {
				b = jstext.AppendString(b, doc.Active)
			}
		case fItems:
			if len(doc.Items) == 0 {
				b = append(b, "[]"...)
				continue
			}
			b = append(b, '[')
			for i, it := range doc.Items {
				if i > 0 {
					b = append(b, ',')
				}
				b = jsonIndent(b, 2)
				b = appendJSONItem(b, it)
				if flush != nil && len(b) >= flushSize {
					b = flush(b)
				}
			}
			b = jsonIndent(b, 1)
			b = append(b, ']')
		default:
			v, _ := getField(doc.Extra, name)
			b = appendJSONValue(b, v, 1)
		}
	}
	b = jsonIndent(b, 0)
	return append(b, '}')
}

func appendJSONItem(b []byte, it *noggin.Item) []byte {
	b = append(b, '{')
	first := true
	for _, name := range itemOrder(it) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = jsonIndent(b, 3)
		b = jstext.AppendString(b, name)
		b = append(b, ':', ' ')
		switch name {
		case fKey:
			b = jstext.AppendString(b, it.Key)
		case fParentKey:
			if it.ParentKey == "" {
				b = append(b, "null"...)
			} else {
				b = jstext.AppendString(b, it.ParentKey)
			}
		case fTitle:
			b = jstext.AppendString(b, it.Title)
		case fDone:
			if it.Done {
				b = append(b, "true"...)
			} else {
				b = append(b, "false"...)
			}
		case fCreatedAt:
			if it.CreatedAt == nil {
				b = append(b, "null"...)
			} else {
				b = jstext.AppendString(b, *it.CreatedAt)
			}
		case fNotes:
			if len(it.Notes) == 0 {
				b = append(b, "[]"...)
				continue
			}
			b = append(b, '[')
			for i, n := range it.Notes {
				if i > 0 {
					b = append(b, ',')
				}
				b = jsonIndent(b, 4)
				b = append(b, '{')
				b = jsonIndent(b, 5)
				b = append(b, `"timestamp": `...)
				if n.Timestamp == "" {
					b = append(b, "null"...)
				} else {
					b = jstext.AppendString(b, n.Timestamp)
				}
				b = append(b, ',')
				b = jsonIndent(b, 5)
				b = append(b, `"text": `...)
				b = jstext.AppendString(b, n.Text)
				b = jsonIndent(b, 4)
				b = append(b, '}')
			}
			b = jsonIndent(b, 3)
			b = append(b, ']')
		default:
			v, _ := getField(it.ExtraFields(), name)
			b = appendJSONValue(b, v, 3)
		}
	}
	if first {
		return append(b, '}')
	}
	b = jsonIndent(b, 2)
	return append(b, '}')
}
