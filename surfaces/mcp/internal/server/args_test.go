package server

import (
	"encoding/json"
	"github.com/noggin-go/noggin/core/jstext"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
)

func TestJSString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`5`, "5"}, {`5.0`, "5"}, {`-0`, "0"}, {`1.5`, "1.5"}, {`-2.25`, "-2.25"},
		{`100`, "100"}, {`1e21`, "1e+21"}, {`1e20`, "100000000000000000000"},
		{`123456789012345678901234`, "1.2345678901234569e+23"}, {`0.000001`, "0.000001"},
		{`0.0000001`, "1e-7"}, {`1.5e-9`, "1.5e-9"}, {`0.1`, "0.1"}, {`12345.678`, "12345.678"},
		{`true`, "true"}, {`false`, "false"}, {`null`, "null"}, {`"x y"`, "x y"},
		{`[1, "a", null, [2, 3]]`, "1,a,,2,3"}, {`[]`, ""}, {`{"a": 1}`, "[object Object]"},
	} {
		var v any
		if err := json.Unmarshal([]byte(c.in), &v); err != nil {
			t.Fatal(err)
		}
		if got := jsString(v); got != c.want {
			t.Errorf("jsString(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTruthyAndTrim(t *testing.T) {
	for in, want := range map[string]bool{
		`0`: false, `-0`: false, `""`: false, `null`: false, `false`: false,
		`1`: true, `"0"`: true, `" "`: true, `true`: true, `[]`: true, `{}`: true,
	} {
		var v any
		_ = json.Unmarshal([]byte(in), &v)
		if truthy(v) != want {
			t.Errorf("truthy(%s) = %v", in, !want)
		}
	}
	if got := jstext.TrimSpace("\ufeff\u00a0 x y\u2028\t"); got != "x y" {
		t.Errorf("jsTrim = %q", got)
	}
	if got := jstext.TrimSpace("\u0085x\u0085"); got != "\u0085x\u0085" { // NEL is not JS white space
		t.Errorf("jstext.TrimSpace(NEL) = %q", got)
	}
}

func TestArgMapping(t *testing.T) {
	a := decodeArgs(json.RawMessage(`{"goto": 0, "before": 7, "into": "", "after": null}`))
	if g := a.gotoOpt(); g != (noggin.Goto{Present: true}) {
		t.Errorf("goto 0 = %+v", g)
	}
	p, err := a.placement()
	if err != nil || p == nil || *p != (noggin.Placement{Kind: "before", Anchor: "7"}) {
		t.Errorf("placement = %+v %v", p, err)
	}
	for _, raw := range []string{``, `null`, `[1]`, `"x"`, `{`} {
		if len(decodeArgs(json.RawMessage(raw))) != 0 {
			t.Errorf("decodeArgs(%q) not empty", raw)
		}
	}
	if g := decodeArgs(json.RawMessage(`{}`)).gotoOpt(); g.Present {
		t.Errorf("absent goto is present")
	}
	if g := decodeArgs(json.RawMessage(`{"goto": "+"}`)).gotoOpt(); g != (noggin.Goto{Present: true, Path: "+"}) {
		t.Errorf("goto + = %+v", g)
	}
}

func TestVerbOf(t *testing.T) {
	for in, want := range map[string]string{
		"noggin_show": "show", "noggin_foo_bar": "foo-bar", "bogus": "bogus", "noggin_": "", "": "",
	} {
		if got := VerbOf(in); got != want {
			t.Errorf("VerbOf(%q) = %q, want %q", in, got, want)
		}
	}
}
