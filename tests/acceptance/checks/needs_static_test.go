package checks

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestNeedsCoverWhatJudgesRead reads the package's source, as a
// go/analysis pass would, and finds every field of Facts each judge reads,
// through the functions, methods and closures of this package it may call.
// A judge that reads a field its check does not declare in Needs would
// find it empty when the harness runs it (JudgeOn): a false verdict on a
// path no transcript replays, which TestJudgesReadOnlyWhatTheyNeed cannot
// see. A need declared and never read hands the judge more than it reads.
//
// Where the analysis cannot follow a *Facts (handed to another package,
// to a function value it cannot resolve, or converted to an interface), it
// counts every field as read, so the check must declare them all.
func TestNeedsCoverWhatJudgesRead(t *testing.T) {
	p := loadPackage(t)
	fields := needFields(t, p)
	g := newCallGraph(p)
	g.walk()
	t.Logf("%d place(s) in the package hand a *Facts where the analysis cannot follow it: %s", len(g.escapes), strings.Join(g.escapes, "; "))
	for _, n := range g.unnamedMethods() {
		if reads, everything := g.reach(n); len(reads) > 0 || everything != "" {
			t.Errorf("%s reads Facts but runs only through an interface, which the analysis does not follow", n.name)
		}
	}
	roots := judgeRoots(t, p, g)
	reaching := 0
	for _, id := range slices.Sorted(maps.Keys(roots)) {
		needs, _, ok := needsOf(strings.TrimPrefix(id, "check "))
		if !ok {
			t.Errorf("the source declares %s, which ByID and ruleNamed do not know", id)
			continue
		}
		reads, everything := g.reach(roots[id])
		if everything != "" {
			reaching++
		}
		compareNeeds(t, id, needs, fields, g.factsFields, reads, everything)
	}
	t.Logf("%d of %d judges reach such a place", reaching, len(roots))
	for _, c := range all {
		if _, ok := roots["check "+c.ID]; !ok {
			t.Errorf("check %s has no &Check{...} with a Judge in the source", c.ID)
		}
	}
	for _, r := range rules {
		if _, ok := roots["rule "+r.Name]; !ok {
			t.Errorf("rule %s has no &Rule{...} with a Judge in the source", r.Name)
		}
	}
}

// compareNeeds fails each field of Facts the judge of id reads and its
// needs do not name, and each need that names a field it never reads;
// everything, if not "", is where it hands its Facts to code that may
// read any field.
func compareNeeds(t *testing.T, id string, needs []need, fields map[need]string, factsFields []string, reads map[string]string, everything string) {
	t.Helper()
	declared, needed := map[string]bool{}, map[string]bool{}
	for _, n := range needs {
		declared[fields[n]] = true
	}
	for _, field := range fields {
		needed[field] = true
	}
	for _, field := range factsFields {
		switch r, ok := reads[field]; {
		case ok && !declared[field]:
			t.Errorf("%s reads Facts.%s, which its Needs do not declare: %s", id, field, r)
		case everything != "" && needed[field] && !declared[field]:
			t.Errorf("%s may read Facts.%s, which its Needs do not declare: %s", id, field, everything)
		}
	}
	for _, n := range needs {
		if _, ok := reads[fields[n]]; !ok && everything == "" {
			t.Errorf("%s declares the need for Facts.%s, which its judge never reads", id, fields[n])
		}
	}
}

// literalJudge returns the id and the Judge of lit if it is a Check or a Rule.
func literalJudge(t *testing.T, p *typedPackage, lit *ast.CompositeLit) (id string, judge ast.Expr, ok bool) {
	t.Helper()
	named, _ := types.Unalias(p.info.TypeOf(lit)).(*types.Named)
	if named == nil || named.Obj().Pkg() != p.pkg {
		return "", nil, false
	}
	kind := map[string]string{"Check": "check ", "Rule": "rule "}[named.Obj().Name()]
	if kind == "" {
		return "", nil, false
	}
	id = kind
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			t.Fatalf("%s: a %s literal without keys", p.fset.Position(lit.Pos()), named.Obj().Name())
		}
		switch key := kv.Key.(*ast.Ident).Name; key {
		case "ID", "Name":
			if v := p.info.Types[kv.Value].Value; v != nil && v.Kind() == constant.String {
				id = kind + constant.StringVal(v)
			}
		case "Judge":
			judge = kv.Value
		}
	}
	return id, judge, true
}

// typedPackage is package checks, its test files left out, type-checked.
type typedPackage struct {
	fset  *token.FileSet
	files []*ast.File
	info  *types.Info
	pkg   *types.Package
}

func loadPackage(t *testing.T) *typedPackage {
	t.Helper()
	bp, err := build.Default.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	p := &typedPackage{fset: token.NewFileSet(), info: newInfo()}
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(p.fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		p.files = append(p.files, f)
	}
	conf := types.Config{Importer: importer.ForCompiler(p.fset, "gc", exportData(t, bp.Imports))}
	p.pkg, err = conf.Check(bp.ImportPath, p.fset, p.files, p.info)
	if err != nil {
		t.Fatalf("type-checking package checks: %v", err)
	}
	return p
}

// newInfo asks the type-checker for what the analysis reads.
func newInfo() *types.Info {
	return &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
}

// exportData finds the compiled export data of the given packages, which
// the go command has built for this test already: type-checking them
// from source instead takes seconds.
func exportData(t *testing.T, imports []string) importer.Lookup {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-export", "-f", "{{.ImportPath}}\t{{.Export}}"}, imports...)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	files := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, file, _ := strings.Cut(line, "\t")
		files[path] = file
	}
	return func(path string) (io.ReadCloser, error) {
		file, ok := files[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	}
}

// needFields maps each need to the field of Facts it copies, read from
// the switch of need.copy.
func needFields(t *testing.T, p *typedPackage) map[need]string {
	t.Helper()
	fields := map[need]string{}
	for _, f := range p.files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name != "copy" || fd.Recv == nil || types.ExprString(fd.Recv.List[0].Type) != "need" {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				cc, ok := n.(*ast.CaseClause)
				if !ok {
					return true
				}
				field, ok := copiedField(cc.Body)
				if !ok || len(cc.List) != 1 {
					t.Fatalf("need.copy at %s: want one case and one to.F = from.F per need", p.fset.Position(cc.Pos()))
				}
				v, _ := constant.Int64Val(p.info.Types[cc.List[0]].Value)
				fields[need(v)] = field
				return false
			})
		}
	}
	if len(fields) != int(needCount) {
		t.Fatalf("need.copy names %d fields, want one for each of the %d needs", len(fields), needCount)
	}
	return fields
}

// copiedField returns F of a case body that is only to.F = from.F.
func copiedField(body []ast.Stmt) (string, bool) {
	if len(body) != 1 {
		return "", false
	}
	as, ok := body[0].(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return "", false
	}
	to, ok1 := as.Lhs[0].(*ast.SelectorExpr)
	from, ok2 := as.Rhs[0].(*ast.SelectorExpr)
	if !ok1 || !ok2 || to.Sel.Name != from.Sel.Name {
		return "", false
	}
	return to.Sel.Name, true
}

// judgeRoots finds the Judge of each &Check{...} and &Rule{...} literal,
// by "check " and the check's ID or "rule " and the rule's Name.
func judgeRoots(t *testing.T, p *typedPackage, g *callGraph) map[string]*fnode {
	t.Helper()
	roots := map[string]*fnode{}
	for _, f := range p.files {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			id, judge, ok := literalJudge(t, p, lit)
			if !ok {
				return true
			}
			where := p.fset.Position(lit.Pos())
			targets, ok := g.resolve(judge, map[types.Object]bool{})
			switch {
			case strings.HasSuffix(id, " "):
				t.Errorf("%s: a literal of %s whose ID or Name is not a constant", where, id)
			case !ok || len(targets) != 1:
				t.Errorf("%s: the Judge of %s is not one function of this package", where, id)
			case roots[id] != nil:
				t.Errorf("%s: a second literal of %s", where, id)
			default:
				roots[id] = &fnode{name: "Judge", calls: targets}
			}
			return true
		})
	}
	for _, field := range []string{"Check", "Rule"} {
		obj, _, _ := types.LookupFieldOrMethod(p.pkg.Scope().Lookup(field).Type(), false, p.pkg, "Judge")
		if n := g.assigned[obj.(*types.Var)]; n != 0 {
			t.Errorf("%s.Judge is set %d times outside a literal", field, n)
		}
	}
	return roots
}
