package noggin

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEngineReadsItemsThroughAccessors: outside model.go the engine reads
// an item's fields (all but its keys) only through the accessors that
// decode an item a lazy read left undecoded (title, done, createdAt,
// notes, foreign, clone), writes them only on the applier's private
// copies (ops.go), and never touches the lazy machinery (body, Decode,
// Undecoded, LeaveUndecoded). A new verb that reads it.Title fails here,
// where on a large file it would answer wrongly; TestEveryVerbDecodesWhatItReads
// checks the same at run time.
func TestEngineReadsItemsThroughAccessors(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("github.com/noggin-go/noggin/core/noggin", fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	item := pkg.Scope().Lookup("Item").Type()
	written := map[*ast.SelectorExpr]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if a, ok := n.(*ast.AssignStmt); ok {
				for _, e := range a.Lhs {
					if se, ok := e.(*ast.SelectorExpr); ok {
						written[se] = true
					}
				}
			}
			return true
		})
	}
	fields := []string{"Title", "Done", "CreatedAt", "Notes", "Foreign"}
	machinery := []string{"body", "Decode", "Undecoded", "LeaveUndecoded"}
	for sel, s := range info.Selections {
		recv := s.Recv()
		if p, ok := recv.(*types.Pointer); ok {
			recv = p.Elem()
		}
		pos := fset.Position(sel.Sel.Pos())
		file, name := filepath.Base(pos.Filename), sel.Sel.Name
		if !types.Identical(recv, item) || file == "model.go" {
			continue
		}
		switch {
		case slices.Contains(machinery, name):
			t.Errorf("%s: %s outside model.go", pos, name)
		case s.Kind() != types.FieldVal || !slices.Contains(fields, name):
		case written[sel] && file == "ops.go": // the applier's own copies (mutable, add)
		case written[sel]:
			t.Errorf("%s: %s written outside the applier (ops.go)", pos, name)
		default:
			t.Errorf("%s: %s read directly; use the accessor %s()", pos, name, strings.ToLower(name[:1])+name[1:])
		}
	}
}
