package codec

import (
	"cmp"
	"errors"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/noggin-go/noggin/core/jstext"

	"github.com/noggin-go/noggin/core/noggin"
)

// Generic values produced by the parsers are: nil, bool, noggin.Number,
// string, []any and noggin.Map. Numbers hold the JavaScript string form of
// the parsed value (String(n)), with "-0" for negative zero, so that the
// behaviour of the original tool (which parses into JavaScript numbers) is
// reproduced on every later conversion.

// jsNumber formats f like JavaScript's Number.prototype.toString(), except
// that negative zero is kept as "-0" (so JSON round trips are stable).
func jsNumber(f float64) string {
	if f == 0 && math.Signbit(f) {
		return "-0"
	}
	return jstext.FormatNumber(f)
}

// resolvePlain resolves a plain (unquoted, untagged) YAML scalar with the
// rules of the original tool's YAML library (js-yaml 4.2 default schema),
// except that timestamps stay strings (their literal text).
func resolvePlain(s string) any {
	switch k, v := classifyPlain(s); k {
	case kNull:
		return nil
	case kTrue:
		return true
	case kFalse:
		return false
	case kNumber:
		return noggin.Number(v)
	default:
		return v
	}
}

// Scalar kinds, for the allocation-free scalar representation of the fast
// reader: (kind, text) where text is the string or the number's JS form.
const (
	kString = iota
	kNull
	kTrue
	kFalse
	kNumber
)

// classifyPlain is resolvePlain without boxing.
func classifyPlain(s string) (int, string) {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return kNull, ""
	case "true", "True", "TRUE":
		return kTrue, ""
	case "false", "False", "FALSE":
		return kFalse, ""
	}
	c := s[0]
	if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' {
		if isYAMLInt(s) {
			return kNumber, yamlIntValue(s)
		}
		if isYAMLFloat(s) {
			return kNumber, yamlFloatValue(s)
		}
	}
	return kString, s
}

func isDec(c byte) bool { return c >= '0' && c <= '9' }
func isOct(c byte) bool { return c >= '0' && c <= '7' }
func isHex(c byte) bool {
	return isDec(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// isYAMLInt is js-yaml 4.2's resolveYamlInteger: decimal, 0b, 0o or 0x
// digits after an optional sign, no underscores, and a finite value.
func isYAMLInt(s string) bool {
	n := len(s)
	i := 0
	if i < n && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if i == n {
		return false
	}
	digits := isDec
	if s[i] == '0' {
		if i+1 == n {
			return true
		}
		switch s[i+1] {
		case 'b':
			digits, i = func(c byte) bool { return c == '0' || c == '1' }, i+2
		case 'x':
			digits, i = isHex, i+2
		case 'o':
			digits, i = isOct, i+2
		}
	}
	if i == n {
		return false
	}
	for ; i < n; i++ {
		if !digits(s[i]) {
			return false
		}
	}
	v := yamlIntValue(s)
	return v != "Infinity" && v != "-Infinity"
}

// yamlIntValue is js-yaml's constructYamlInteger (parseInt of the digits),
// formatted as a JS number.
func yamlIntValue(s string) string {
	v := s
	neg := false
	if v[0] == '-' || v[0] == '+' {
		neg = v[0] == '-'
		v = v[1:]
	}
	if v == "0" {
		return "0" // parseYamlInteger returns 0 before it applies the sign
	}
	base := 10
	if len(v) > 1 && v[0] == '0' {
		switch v[1] {
		case 'b':
			base, v = 2, v[2:]
		case 'x':
			base, v = 16, v[2:]
		case 'o':
			base, v = 8, v[2:]
		}
	}
	var f float64
	if base == 10 {
		f, _ = strconv.ParseFloat(v, 64) // ±Inf past the largest float
	} else {
		bi, ok := new(big.Int).SetString(v, base)
		if !ok {
			return "NaN"
		}
		f, _ = new(big.Float).SetInt(bi).Float64()
	}
	if neg {
		f = -f
	}
	return jsNumber(f)
}

// isYAMLFloat is js-yaml 4.2's resolveYamlFloat:
// ^(?:[-+]?[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9]+(?:[eE][-+]?[0-9]+)?
//
//	|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$
//
// whose value is finite, unless it is one of the .inf and .nan spellings.
func isYAMLFloat(s string) bool {
	n := len(s)
	if n == 0 {
		return false
	}
	switch s {
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return true
	}
	i := 0
	run := func() int { // [0-9]*
		st := i
		for i < n && isDec(s[i]) {
			i++
		}
		return i - st
	}
	if s[0] == '.' {
		i = 1
		if run() == 0 {
			return false
		}
	} else {
		if s[i] == '-' || s[i] == '+' {
			i++
		}
		if run() == 0 {
			return false
		}
		if i < n && s[i] == '.' {
			i++
			run()
		}
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') { // (?:[eE][-+]?[0-9]+)?
		i++
		if i < n && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if run() == 0 {
			return false
		}
	}
	if i != n {
		return false
	}
	v := yamlFloatValue(s)
	return v != "Infinity" && v != "-Infinity" && v != "NaN"
}

// yamlFloatValue is js-yaml's constructYamlFloat, formatted as a JS number.
func yamlFloatValue(s string) string {
	v := strings.ToLower(s)
	neg := v[0] == '-'
	if v[0] == '-' || v[0] == '+' {
		v = v[1:]
	}
	switch v {
	case ".inf":
		if neg {
			return "-Infinity"
		}
		return "Infinity"
	case ".nan":
		return "NaN"
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return "NaN"
	}
	if neg {
		f = -f
	}
	return jsNumber(f)
}

// isTimestamp reports whether js-yaml's timestamp type resolves s.
func isTimestamp(s string) bool { //nolint:gocyclo // js-yaml's timestamp pattern spelled out by hand: it runs on every string the writer writes
	n := len(s)
	d := func(i int) bool { return i < n && isDec(s[i]) }
	// YYYY-MM-DD exactly
	if n == 10 && d(0) && d(1) && d(2) && d(3) && s[4] == '-' && d(5) && d(6) && s[7] == '-' && d(8) && d(9) {
		return true
	}
	// ^YYYY-M?M-D?D(?:[Tt]|[ \t]+)H?H:MM:SS(?:\.[0-9]*)?(?:[ \t]*(Z|[-+]H?H(?::MM)?))?$
	if !(d(0) && d(1) && d(2) && d(3)) || n < 5 || s[4] != '-' {
		return false
	}
	i := 5
	digits12 := func() bool {
		if !d(i) {
			return false
		}
		i++
		if d(i) {
			i++
		}
		return true
	}
	if !digits12() || i >= n || s[i] != '-' {
		return false
	}
	i++
	if !digits12() || i >= n {
		return false
	}
	if s[i] == 'T' || s[i] == 't' {
		i++
	} else if s[i] == ' ' || s[i] == '\t' {
		for i < n && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	} else {
		return false
	}
	if !digits12() || i >= n || s[i] != ':' || !d(i+1) || !d(i+2) {
		return false
	}
	i += 3
	if i >= n || s[i] != ':' || !d(i+1) || !d(i+2) {
		return false
	}
	i += 3
	if i < n && s[i] == '.' {
		i++
		for d(i) {
			i++
		}
	}
	if i == n {
		return true
	}
	for i < n && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i == n {
		return false
	}
	if s[i] == 'Z' {
		return i+1 == n
	}
	if s[i] != '-' && s[i] != '+' {
		return false
	}
	i++
	if !digits12() {
		return false
	}
	if i == n {
		return true
	}
	if s[i] != ':' || !d(i+1) || !d(i+2) {
		return false
	}
	return i+3 == n
}

// isAmbiguous reports whether a plain scalar s would not read back as the
// string s (js-yaml's testImplicitResolving over the default schema, plus
// the compatibility quoting of YAML 1.1 booleans and base-60 numbers).
func isAmbiguous(s string) bool {
	switch s {
	case "", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE", "<<",
		"y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "n", "N", "no", "No", "NO", "off", "Off", "OFF":
		return true
	}
	c := s[0]
	if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' {
		return isYAMLInt(s) || isYAMLFloat(s) || isTimestamp(s) || isBase60(s)
	}
	return false
}

// isBase60 is /^[-+]?[0-9_]+(?::[0-9_]+)+(?:\.[0-9_]*)?$/.
func isBase60(s string) bool {
	n := len(s)
	i := 0
	if i < n && (s[i] == '-' || s[i] == '+') {
		i++
	}
	run := func() bool {
		st := i
		for i < n && (isDec(s[i]) || s[i] == '_') {
			i++
		}
		return i > st
	}
	if !run() {
		return false
	}
	groups := 0
	for i < n && s[i] == ':' {
		i++
		if !run() {
			return false
		}
		groups++
	}
	if groups == 0 {
		return false
	}
	if i < n && s[i] == '.' {
		i++
		for i < n && (isDec(s[i]) || s[i] == '_') {
			i++
		}
	}
	return i == n
}

// jsIndexKey reports whether a property name is a JavaScript array index
// (such keys are ordered first, ascending, in JavaScript objects).
func jsIndexKey(k string) (uint32, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(k); i++ {
		if !isDec(k[i]) {
			return 0, false
		}
		v = v*10 + uint64(k[i]-'0')
	}
	if v >= 1<<32-1 {
		return 0, false
	}
	return uint32(v), true
}

// jsOrder reorders fields like JavaScript's own-property order: array-index
// keys first in ascending order, then the others in insertion order.
func jsOrder(m noggin.Map) noggin.Map {
	nIdx := 0
	for _, f := range m {
		if _, ok := jsIndexKey(f.Name); ok {
			nIdx++
		}
	}
	if nIdx == 0 {
		return m
	}
	idx := make(noggin.Map, 0, len(m))
	rest := make(noggin.Map, 0, len(m)-nIdx)
	for _, f := range m {
		if _, ok := jsIndexKey(f.Name); ok {
			idx = append(idx, f)
		} else {
			rest = append(rest, f)
		}
	}
	slices.SortStableFunc(idx, func(a, b noggin.Field) int {
		x, _ := jsIndexKey(a.Name)
		y, _ := jsIndexKey(b.Name)
		return cmp.Compare(x, y)
	})
	return append(idx, rest...)
}
