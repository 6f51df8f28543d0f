package request

import "testing"

func TestFingerprint(t *testing.T) {
	push := func(title string) *Request {
		return &Request{Verb: "push", Title: String(title), Location: String("team.yaml")}
	}
	withID := push("a")
	withID.ID = "abc-1"
	for _, tc := range []struct {
		name string
		a, b *Request
		same bool
	}{
		{"the same request", push("a"), push("a"), true},
		{"the id is not part of it", push("a"), withID, true},
		{"another title", push("a"), push("b"), false},
		{"another verb", push("a"), &Request{Verb: "add", Title: String("a"), Location: String("team.yaml")}, false},
		{"another noggin", push("a"), &Request{Verb: "push", Title: String("a"), Location: String("other.yaml")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fa, fb := tc.a.Fingerprint(), tc.b.Fingerprint()
			if len(fa) != 32 || (fa == fb) != tc.same {
				t.Errorf("fingerprints %q and %q, want same %v", fa, fb, tc.same)
			}
		})
	}
}
