package server_test

import (
	"strings"
	"testing"
	"unicode"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/noggin-go/noggin/core/request"
	nogginv1 "github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1"
)

// protoField is the field of a typed request that carries a structured
// argument of core; "" means the typed call has no such field on purpose.
var protoField = map[string]string{
	"noggin": "location", "from": "source_location", "to": "dest_location",
	"before": "placement", "after": "placement", "into": "placement",
	"state":     "done", // edit: optional bool done
	"withAll":   "",     // show: with_siblings and with_descendants together
	"withNotes": "",     // no effect: every node carries its notes
	// The view options bound an envelope's JSON or choose its text: the
	// typed calls answer typed messages, so they are on Call and Run only.
	"window": "", "maxBytes": "", "format": "",
}

// TestEveryVerbHasTypedRPC: every verb of core has its typed method
// (Push for push) taking <Method>Request, with a field for each argument
// core takes — a new verb or argument fails here until proto/ has it.
func TestEveryVerbHasTypedRPC(t *testing.T) {
	svc := nogginv1.File_noggin_v1_noggin_proto.Services().ByName("NogginService")
	for _, v := range request.Catalog() {
		name := string(unicode.ToUpper(rune(v.Name[0]))) + v.Name[1:]
		m := svc.Methods().ByName(protoName(name))
		if m == nil {
			t.Errorf("verb %s: NogginService has no method %s", v.Name, name)
			continue
		}
		in := m.Input()
		if string(in.Name()) != name+"Request" {
			t.Errorf("verb %s: %s takes %s, want %sRequest", v.Name, name, in.Name(), name)
		}
		for _, p := range v.Params {
			if p.Hidden {
				continue
			}
			f, ok := protoField[p.Name]
			if !ok {
				f = snake(p.Name)
			}
			if f != "" && in.Fields().ByName(protoName(f)) == nil {
				t.Errorf("verb %s: %s has no field %s for argument %s", v.Name, in.Name(), f, p.Name)
			}
		}
	}
}

// snake turns closeAll into close_all.
func snake(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsUpper(r) {
			b.WriteByte('_')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

func protoName(s string) protoreflect.Name { return protoreflect.Name(s) }
