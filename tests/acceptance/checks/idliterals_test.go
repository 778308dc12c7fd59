package checks

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNoCheckIDOutsideChecks keeps what a check is in this package: the
// harness's other packages name a check through a value exported here
// (ServerStart, Integration, ...), never by writing its id. It fails on a
// string literal equal to a check id where the code uses it as one:
// compared with an .ID, passed to Find, ByID or checkAnchor, or used as a
// map index.
func TestNoCheckIDOutsideChecks(t *testing.T) {
	for _, hit := range checkIDLiterals(t, "..") {
		t.Errorf("%s: check id %s written outside checks/; name the check by a value checks exports", hit.pos, hit.lit)
	}
}

// TestCheckIDLiteralsFound proves the search above finds each use it
// looks for, on sources written for the case.
func TestCheckIDLiteralsFound(t *testing.T) {
	dir := t.TempDir()
	src := `package p

func f(run R, c C, m map[string]int) {
	_ = c.ID == "1"
	_ = "8.2" != c.ID
	_ = run.Find("22")
	_ = checkAnchor("a", "8")
	_ = m["3"]
	_ = m["not an id"]
	_ = c.Name == "1"
	_ = []string{"1", "2"}
	_ = statusField("x") != "1"
}
`
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("class/p.go", src)
	write("checks/p.go", src)           // checks/ may write ids
	write("class/p_test.go", src)       // tests may write ids
	write("class/testdata/p.go", src)   // so may testdata
	write("record/notgo.txt", `m["1"]`) // only Go files are read
	var got []string
	for _, h := range checkIDLiterals(t, dir) {
		got = append(got, filepath.ToSlash(h.pos.Filename[len(dir)+1:])+":"+strconv.Itoa(h.pos.Line)+" "+h.lit)
	}
	want := []string{`class/p.go:4 "1"`, `class/p.go:5 "8.2"`, `class/p.go:6 "22"`, `class/p.go:7 "8"`, `class/p.go:8 "3"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("check id literals found (-want +got):\n%s", diff)
	}
}

type idLiteral struct {
	pos token.Position
	lit string
}

// checkIDLiterals parses every non-test Go file under root outside
// root/checks and testdata and returns the check ids written as one.
func checkIDLiterals(t *testing.T, root string) []idLiteral {
	t.Helper()
	ids := map[string]bool{}
	for _, c := range All() {
		ids[c.ID] = true
	}
	isID := func(e ast.Expr) (string, bool) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return "", false
		}
		v, err := strconv.Unquote(lit.Value)
		return lit.Value, err == nil && ids[v]
	}
	isIDField := func(e ast.Expr) bool {
		sel, ok := e.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "ID"
	}
	calleeName := func(e ast.Expr) string {
		switch f := e.(type) {
		case *ast.Ident:
			return f.Name
		case *ast.SelectorExpr:
			return f.Sel.Name
		}
		return ""
	}
	var hits []idLiteral
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" || path == filepath.Join(root, "checks") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		found := func(e ast.Expr) {
			if lit, ok := isID(e); ok {
				hits = append(hits, idLiteral{fset.Position(e.Pos()), lit})
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if n.Op != token.EQL && n.Op != token.NEQ {
					break
				}
				if isIDField(n.X) {
					found(n.Y)
				}
				if isIDField(n.Y) {
					found(n.X)
				}
			case *ast.CallExpr:
				switch calleeName(n.Fun) {
				case "Find", "ByID", "checkAnchor":
					for _, a := range n.Args {
						found(a)
					}
				}
			case *ast.IndexExpr:
				found(n.Index)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}
