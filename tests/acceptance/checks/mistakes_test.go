package checks

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEveryMistakeHasAnOwner reads the Mistake constants package diagnose
// declares and checks that each is charged to a check, and only those.
func TestEveryMistakeHasAnOwner(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "diagnose", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	fset := token.NewFileSet()
	for _, p := range files {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Mistake" {
					continue
				}
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					if !ok {
						t.Fatalf("%s: a Mistake whose value is not a string literal", fset.Position(v.Pos()))
					}
					m, err := strconv.Unquote(lit.Value)
					if err != nil {
						t.Fatal(err)
					}
					declared = append(declared, m)
				}
			}
		}
	}
	if len(declared) == 0 {
		t.Fatal("no Mistake constant found in package diagnose")
	}
	var owned []string
	for m, c := range mistakeOwner {
		if c == nil {
			t.Errorf("mistake %q has a nil owner", m)
		}
		owned = append(owned, string(m))
	}
	sort.Strings(declared)
	sort.Strings(owned)
	if diff := cmp.Diff(declared, owned); diff != "" {
		t.Errorf("mistakes declared (-) and charged to a check (+):\n%s", diff)
	}
}
