package codec

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"

	"github.com/noggin-go/noggin/core/jstext"
	"github.com/noggin-go/noggin/core/noggin"
)

// ReadJSON reads one JSON value as JSON.parse does: objects as noggin.Map
// in JavaScript's key order (a repeated key keeps its first place and its
// last value), numbers as noggin.Number, strings with a lone surrogate
// escape ("\ud800") kept as WTF-8 (see jstext).
func ReadJSON(data []byte) (any, error) { return parseJSON(data, false) }

// DecodeJSONValue decodes one JSON value as JSON.parse does, into the
// values encoding/json gives (nil, bool, float64, string, []any,
// map[string]any), except that a lone surrogate escape ("\ud800") is kept
// as WTF-8 (see jstext) instead of becoming U+FFFD, and a number too large
// for a float is ±Inf instead of an error.
func DecodeJSONValue(data []byte) (any, error) {
	v, err := parseJSON(data, false)
	if err != nil {
		return nil, err
	}
	return plainValue(v), nil
}

func plainValue(v any) any {
	switch x := v.(type) {
	case noggin.Number:
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plainValue(e)
		}
		return out
	case noggin.Map:
		out := make(map[string]any, len(x))
		for _, f := range x {
			out[f.Name] = plainValue(f.Value)
		}
		return out
	}
	return v
}

// AppendJSONValue appends v, a value of the JSON model DecodeJSONValue
// gives, as JSON: strings as JSON.stringify writes them (a lone surrogate
// as \udxxx), object keys sorted, anything else as encoding/json does.
func AppendJSONValue(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case string:
		return jstext.AppendString(b, x), nil
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = AppendJSONValue(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		b = append(b, '{')
		for i, k := range slices.Sorted(maps.Keys(x)) {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(jstext.AppendString(b, k), ':')
			var err error
			if b, err = AppendJSONValue(b, x[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	j, err := json.Marshal(v)
	return append(b, j...), err
}
