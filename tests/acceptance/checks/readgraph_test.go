package checks

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The analysis of TestNeedsCoverWhatJudgesRead: which fields of Facts
// each function of the package reads, and what it may call.

// fnode is a function body the analysis follows: a declared function or
// method, or a function literal, which its enclosing function is taken to
// call.
type fnode struct {
	name string
	// reads holds where it first reads each field of Facts.
	reads map[string]string
	// escapes says where it hands a *Facts to code the analysis cannot
	// follow.
	escapes []string
	calls   []*fnode
}

// callGraph holds every function body of the package and what each may
// call: the package's functions and methods it names, the literals it
// holds, and the values a function-typed variable or field it calls is
// set to anywhere in the package.
type callGraph struct {
	p           *typedPackage
	facts       types.Type
	factsFields []string
	isField     map[types.Object]bool
	decls       map[*types.Func]*fnode
	lits        map[*ast.FuncLit]*fnode
	// values holds what each function-typed variable or field is set to;
	// unresolved marks those set from a call with several results.
	values     map[*types.Var][]ast.Expr
	unresolved map[*types.Var]bool
	// assigned counts the settings by assignment, not in a literal.
	assigned map[*types.Var]int
	// named marks the functions some code of the package names; a
	// method it does not name runs only through an interface.
	named map[*types.Func]bool
	// escapes lists every place in the package that hands a *Facts to
	// code the analysis cannot follow.
	escapes []string
}

func newCallGraph(p *typedPackage) *callGraph {
	facts := p.pkg.Scope().Lookup("Facts").Type()
	g := &callGraph{p: p, facts: facts, isField: map[types.Object]bool{},
		decls: map[*types.Func]*fnode{}, lits: map[*ast.FuncLit]*fnode{},
		values: map[*types.Var][]ast.Expr{}, unresolved: map[*types.Var]bool{}, assigned: map[*types.Var]int{}, named: map[*types.Func]bool{}}
	st := facts.Underlying().(*types.Struct)
	for i := range st.NumFields() {
		g.factsFields = append(g.factsFields, st.Field(i).Name())
		g.isField[st.Field(i)] = true
	}
	for _, f := range p.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Body != nil {
					g.decls[p.info.Defs[n.Name].(*types.Func)] = &fnode{name: g.declName(n), reads: map[string]string{}}
				}
			case *ast.FuncLit:
				g.lits[n] = &fnode{name: "func literal at " + g.where(n.Pos()), reads: map[string]string{}}
			}
			return true
		})
	}
	for _, f := range p.files {
		ast.Inspect(f, g.collectValues)
	}
	return g
}

func (g *callGraph) where(pos token.Pos) string {
	at := g.p.fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(at.Filename), at.Line)
}

func (g *callGraph) declName(d *ast.FuncDecl) string {
	name := d.Name.Name
	if d.Recv != nil {
		recv := types.ExprString(d.Recv.List[0].Type)
		if strings.HasPrefix(recv, "*") {
			recv = "(" + recv + ")"
		}
		name = recv + "." + name
	}
	return name + " at " + g.where(d.Pos())
}

// collectValues records what function-typed variables and fields are set
// to, in literals, assignments and declarations.
func (g *callGraph) collectValues(n ast.Node) bool {
	info := g.p.info
	switch n := n.(type) {
	case *ast.CompositeLit:
		st, ok := info.TypeOf(n).Underlying().(*types.Struct)
		if !ok {
			return true
		}
		for i, e := range n.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				g.setTo(info.Uses[kv.Key.(*ast.Ident)], kv.Value, false)
			} else {
				g.setTo(st.Field(i), e, false)
			}
		}
	case *ast.AssignStmt:
		for i, lhs := range n.Lhs {
			if len(n.Lhs) == len(n.Rhs) {
				g.setTo(g.assignee(lhs), n.Rhs[i], true)
			} else {
				g.markUnresolved(g.assignee(lhs))
			}
		}
	case *ast.FuncType:
		// A parameter holds whatever a caller passes.
		for _, list := range []*ast.FieldList{n.Params, n.Results} {
			if list == nil {
				continue
			}
			for _, field := range list.List {
				for _, name := range field.Names {
					g.markUnresolved(info.Defs[name])
				}
			}
		}
	case *ast.RangeStmt:
		for _, e := range []ast.Expr{n.Key, n.Value} {
			if e != nil {
				g.markUnresolved(g.assignee(e))
			}
		}
	case *ast.ValueSpec:
		for i, name := range n.Names {
			if len(n.Names) == len(n.Values) {
				g.setTo(info.Defs[name], n.Values[i], false)
			} else if len(n.Values) > 0 {
				g.markUnresolved(info.Defs[name])
			}
		}
	}
	return true
}

func (g *callGraph) markUnresolved(o types.Object) {
	if v, ok := o.(*types.Var); ok {
		g.unresolved[v] = true
	}
}

// assignee is the variable or field an assignment's left side names.
func (g *callGraph) assignee(lhs ast.Expr) types.Object {
	switch e := ast.Unparen(lhs).(type) {
	case *ast.Ident:
		if o := g.p.info.Defs[e]; o != nil {
			return o
		}
		return g.p.info.Uses[e]
	case *ast.SelectorExpr:
		if sel := g.p.info.Selections[e]; sel != nil {
			return sel.Obj()
		}
		return g.p.info.Uses[e.Sel]
	}
	return nil
}

func (g *callGraph) setTo(o types.Object, value ast.Expr, assign bool) {
	v, ok := o.(*types.Var)
	if !ok {
		return
	}
	if _, ok := v.Type().Underlying().(*types.Signature); !ok {
		return
	}
	g.values[v] = append(g.values[v], value)
	if assign {
		g.assigned[v]++
	}
}

// resolve returns the function bodies of the package e may be: false if
// it may be code the analysis cannot see.
func (g *callGraph) resolve(e ast.Expr, seen map[types.Object]bool) ([]*fnode, bool) {
	info := g.p.info
	switch e := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return []*fnode{g.lits[e]}, true
	case *ast.Ident:
		return g.resolveObject(info.Uses[e], seen)
	case *ast.SelectorExpr:
		if sel := info.Selections[e]; sel != nil {
			return g.resolveObject(sel.Obj(), seen)
		}
		return g.resolveObject(info.Uses[e.Sel], seen)
	}
	return nil, false
}

func (g *callGraph) resolveObject(o types.Object, seen map[types.Object]bool) ([]*fnode, bool) {
	switch o := o.(type) {
	case *types.Func:
		if n := g.decls[o]; n != nil {
			return []*fnode{n}, true
		}
	case *types.Nil:
		return nil, true
	case *types.Var:
		if seen[o] {
			return nil, true
		}
		seen[o] = true
		set := g.values[o]
		// A parameter, or a variable or field of another package, may
		// hold anything; a field or package variable never set holds nil.
		known := o.Pkg() == g.p.pkg && (o.IsField() || o.Parent() == g.p.pkg.Scope() || len(set) > 0)
		if g.unresolved[o] || !known {
			return nil, false
		}
		var out []*fnode
		for _, v := range set {
			targets, ok := g.resolve(v, seen)
			if !ok {
				return nil, false
			}
			out = append(out, targets...)
		}
		return out, true
	}
	return nil, false
}

// walk records, for every function body, the fields of Facts it reads,
// the places it hands a *Facts where the analysis cannot follow it, and
// what it may call.
func (g *callGraph) walk() {
	for _, f := range g.p.files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			g.visit(n, stack)
			stack = append(stack, n)
			return true
		})
	}
}

// owner is the innermost function body around the top of stack; nil
// outside any.
func (g *callGraph) owner(stack []ast.Node) *fnode {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit:
			return g.lits[n]
		case *ast.FuncDecl:
			return g.decls[g.p.info.Defs[n.Name].(*types.Func)]
		}
	}
	return nil
}

func (g *callGraph) visit(n ast.Node, stack []ast.Node) {
	cur := g.owner(stack)
	if cur == nil {
		cur = &fnode{reads: map[string]string{}} // package-level code: no judge's
	}
	switch n := n.(type) {
	case *ast.FuncLit:
		cur.calls = append(cur.calls, g.lits[n])
	case *ast.Ident:
		if fn, ok := g.p.info.Uses[n].(*types.Func); ok && g.decls[fn] != nil {
			cur.calls = append(cur.calls, g.decls[fn])
			g.named[fn] = true
		}
	case *ast.CallExpr:
		targets, ok := g.resolve(n.Fun, map[types.Object]bool{})
		cur.calls = append(cur.calls, targets...)
		if escape := g.holderPassed(n, ok); escape != "" {
			cur.escapes = append(cur.escapes, escape)
			g.escapes = append(g.escapes, escape)
		}
	}
	if e, ok := n.(ast.Expr); ok && g.isFacts(e) {
		if escape := g.use(e, stack, cur); escape != "" {
			escape += " at " + g.where(e.Pos())
			cur.escapes = append(cur.escapes, escape)
			g.escapes = append(g.escapes, escape)
		}
	}
}

// isFacts says whether e is a value of type Facts or *Facts.
func (g *callGraph) isFacts(e ast.Expr) bool {
	tv, ok := g.p.info.Types[e]
	if !ok || !tv.IsValue() || tv.IsNil() {
		return false
	}
	return g.factsType(tv.Type)
}

// holderPassed says how call, whose callee resolved says whether the
// analysis follows it, hands a value that holds a *Facts to code it does
// not follow or as an interface (which fmt or reflect, say, may read
// through), or "".
func (g *callGraph) holderPassed(call *ast.CallExpr, resolved bool) string {
	info := g.p.info
	tv := info.Types[call.Fun]
	if _, builtin := info.Uses[calleeIdent(call.Fun)].(*types.Builtin); builtin {
		return ""
	}
	for j, a := range call.Args {
		if g.isFacts(a) || !g.holdsFacts(info.TypeOf(a), map[types.Type]bool{}) {
			continue
		}
		var to types.Type
		if tv.IsType() {
			to = tv.Type
		} else if sig, ok := tv.Type.Underlying().(*types.Signature); ok {
			to = paramType(sig, call, j)
		}
		if (!resolved && !tv.IsType()) || to == nil || types.IsInterface(to) {
			return fmt.Sprintf("a value holding a *Facts passed to %s at %s", types.ExprString(call.Fun), g.where(a.Pos()))
		}
	}
	return ""
}

// holdsFacts says whether a value of type t holds a Facts or *Facts.
func (g *callGraph) holdsFacts(t types.Type, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if g.factsType(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return g.holdsFacts(u.Elem(), seen)
	case *types.Slice:
		return g.holdsFacts(u.Elem(), seen)
	case *types.Array:
		return g.holdsFacts(u.Elem(), seen)
	case *types.Chan:
		return g.holdsFacts(u.Elem(), seen)
	case *types.Map:
		return g.holdsFacts(u.Key(), seen) || g.holdsFacts(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if g.holdsFacts(u.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

func (g *callGraph) factsType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	return types.Identical(t, g.facts)
}

// use records what the use of e, a Facts or *Facts, reads: a field it
// selects, or nothing where it goes on as a Facts the analysis sees
// again (an argument of the package's function, a variable, a result).
// It returns how e escapes the analysis, or "".
func (g *callGraph) use(e ast.Expr, stack []ast.Node, cur *fnode) string {
	i := len(stack) - 1
	var child ast.Node = e
	for ; i >= 0; i-- {
		if _, ok := stack[i].(*ast.ParenExpr); !ok {
			break
		}
		child = stack[i]
	}
	if i < 0 {
		return "a *Facts outside any expression"
	}
	info := g.p.info
	switch p := stack[i].(type) {
	case *ast.SelectorExpr:
		if sel := info.Selections[p]; sel != nil && sel.Kind() == types.FieldVal && g.isField[sel.Obj()] {
			if _, ok := cur.reads[sel.Obj().Name()]; !ok {
				cur.reads[sel.Obj().Name()] = g.where(p.Pos())
			}
		}
		return "" // or a method of Facts, which the graph follows
	case *ast.StarExpr, *ast.BinaryExpr:
		return ""
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			return ""
		}
	case *ast.CallExpr:
		return g.passed(p, child)
	case *ast.AssignStmt:
		for j, r := range p.Rhs {
			if r == child && len(p.Lhs) == len(p.Rhs) && !g.keepsFacts(info.TypeOf(p.Lhs[j])) {
				return "a *Facts assigned to " + types.ExprString(p.Lhs[j])
			}
		}
		return ""
	case *ast.ValueSpec:
		for j, v := range p.Values {
			if v == child && !g.keepsFacts(info.Defs[p.Names[j]].Type()) {
				return "a *Facts assigned to " + p.Names[j].Name
			}
		}
		return ""
	case *ast.ReturnStmt:
		return g.returned(p, child, stack[:i])
	case *ast.KeyValueExpr, *ast.CompositeLit:
		return g.stored(stack[:i+1], child)
	}
	return fmt.Sprintf("a *Facts used in a %T", stack[i])
}

// keepsFacts says whether a value of type t is a Facts or *Facts the
// analysis sees again; nil stands for the blank identifier.
func (g *callGraph) keepsFacts(t types.Type) bool {
	return t == nil || g.factsType(t)
}

// passed says how arg, a Facts or *Facts passed to call, escapes, or "".
func (g *callGraph) passed(call *ast.CallExpr, arg ast.Node) string {
	info := g.p.info
	if tv := info.Types[call.Fun]; tv.IsType() {
		if g.factsType(tv.Type) {
			return ""
		}
		return "a *Facts converted to " + tv.Type.String()
	}
	callee := types.ExprString(call.Fun)
	if _, builtin := info.Uses[calleeIdent(call.Fun)].(*types.Builtin); !builtin {
		if _, ok := g.resolve(call.Fun, map[types.Object]bool{}); !ok {
			return "a *Facts passed to " + callee + ", which the analysis cannot follow"
		}
	}
	sig, ok := info.TypeOf(call.Fun).Underlying().(*types.Signature)
	if !ok {
		return "a *Facts passed to " + callee
	}
	for j, a := range call.Args {
		if a != arg {
			continue
		}
		if t := paramType(sig, call, j); t == nil || !g.factsType(t) {
			return fmt.Sprintf("a *Facts passed to %s as %v", callee, t)
		}
	}
	return ""
}

// paramType is the type of the parameter that call's argument j is
// passed as.
func paramType(sig *types.Signature, call *ast.CallExpr, j int) types.Type {
	params := sig.Params()
	switch {
	case sig.Variadic() && j >= params.Len()-1 && !call.Ellipsis.IsValid():
		return params.At(params.Len() - 1).Type().(*types.Slice).Elem()
	case j < params.Len():
		return params.At(j).Type()
	}
	return nil
}

// calleeIdent is the identifier a called expression names, if any.
func calleeIdent(fun ast.Expr) *ast.Ident {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// returned says how v, a Facts or *Facts returned by ret, escapes, or "".
func (g *callGraph) returned(ret *ast.ReturnStmt, v ast.Node, stack []ast.Node) string {
	var sig *types.Signature
	for i := len(stack) - 1; i >= 0 && sig == nil; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit:
			sig = g.p.info.TypeOf(n).(*types.Signature)
		case *ast.FuncDecl:
			sig = g.p.info.Defs[n.Name].Type().(*types.Signature)
		}
	}
	for j, r := range ret.Results {
		if r == v && (sig == nil || len(ret.Results) != sig.Results().Len() || !g.factsType(sig.Results().At(j).Type())) {
			return "a *Facts returned as another type"
		}
	}
	return ""
}

// stored says how v, a Facts or *Facts stored in the composite literal
// or key-value pair on top of stack, escapes, or "".
func (g *callGraph) stored(stack []ast.Node, v ast.Node) string {
	info := g.p.info
	top := stack[len(stack)-1]
	lit, ok := top.(*ast.CompositeLit)
	if kv, isKV := top.(*ast.KeyValueExpr); isKV {
		if kv.Value != v {
			return "a *Facts as a key"
		}
		lit, ok = stack[len(stack)-2].(*ast.CompositeLit)
	}
	if !ok {
		return "a *Facts stored where the analysis cannot see"
	}
	var slot types.Type
	switch t := info.TypeOf(lit).Underlying().(type) {
	case *types.Struct:
		if kv, isKV := top.(*ast.KeyValueExpr); isKV {
			slot = info.Uses[kv.Key.(*ast.Ident)].Type()
		} else {
			for j, e := range lit.Elts {
				if e == v {
					slot = t.Field(j).Type()
				}
			}
		}
	case *types.Slice:
		slot = t.Elem()
	case *types.Array:
		slot = t.Elem()
	case *types.Map:
		slot = t.Elem()
	}
	if slot == nil || !g.factsType(slot) {
		return fmt.Sprintf("a *Facts stored as %v", slot)
	}
	return ""
}

// unnamedMethods returns the methods of the package no code names, which
// run only through an interface the analysis does not follow, and take
// no Facts: one that does is handed it by a call that escapes the
// analysis, which use finds.
func (g *callGraph) unnamedMethods() []*fnode {
	var out []*fnode
	for fn, n := range g.decls {
		sig := fn.Type().(*types.Signature)
		if sig.Recv() == nil || g.named[fn] {
			continue
		}
		takesFacts := false
		for v := range sig.Params().Variables() {
			takesFacts = takesFacts || g.factsType(v.Type())
		}
		if !takesFacts {
			out = append(out, n)
		}
	}
	slices.SortFunc(out, func(a, b *fnode) int { return strings.Compare(a.name, b.name) })
	return out
}

// reach follows root's calls and returns, for each field of Facts read
// on the way, the call path to where it is read; and, if the way hands a
// *Facts where the analysis cannot follow it, the path to that place.
func (g *callGraph) reach(root *fnode) (reads map[string]string, everything string) {
	reads = map[string]string{}
	parent := map[*fnode]*fnode{root: nil}
	path := func(n *fnode) string {
		var names []string
		for ; n != nil; n = parent[n] {
			names = append(names, n.name)
		}
		slices.Reverse(names)
		return strings.Join(names, " → ")
	}
	for queue := []*fnode{root}; len(queue) > 0; queue = queue[1:] {
		n := queue[0]
		for _, field := range g.factsFields {
			if at, ok := n.reads[field]; ok {
				if _, seen := reads[field]; !seen {
					reads[field] = path(n) + ", which reads it at " + at
				}
			}
		}
		if everything == "" && len(n.escapes) > 0 {
			everything = path(n) + ", which hands on " + n.escapes[0]
		}
		for _, c := range n.calls {
			if _, seen := parent[c]; !seen {
				parent[c] = n
				queue = append(queue, c)
			}
		}
	}
	return reads, everything
}

// TestReadGraph runs the analysis on small packages of their own: each
// case's judge must be found to read the fields listed, to hand its Facts
// where the analysis cannot follow it only where it does, and the methods
// that read Facts only through an interface must be named.
func TestReadGraph(t *testing.T) {
	fmtData := exportData(t, []string{"fmt"})
	cases := []struct {
		name, src  string
		reads      []string
		everything bool
		hidden     []string
	}{
		{"direct", `func judge(f *Facts) int { return f.A }`, []string{"A"}, false, nil},
		{"through a method and a helper", `
			func (f *Facts) a() int { return f.A }
			func b(g *Facts) int { return g.B }
			func judge(f *Facts) int { return f.a() + b(f) }`, []string{"A", "B"}, false, nil},
		{"a closure, a copy and a struct field", `
			type scan struct{ facts *Facts }
			func (s scan) c() int { c := *s.facts; return c.C }
			func judge(f *Facts) int { get := func() int { return scan{facts: f}.c() }; return get() }`, []string{"C"}, false, nil},
		{"a function field set in literals", `
			type probe struct{ pick func(*Facts) int }
			var p1 = probe{pick: func(f *Facts) int { return f.A }}
			var p2 = probe{pick: pickB}
			func pickB(f *Facts) int { return f.B }
			func (p probe) judge(f *Facts) int { return p.pick(f) }
			func judge(f *Facts) int { return p1.judge(f) }`, []string{"A", "B"}, false, nil},
		{"a function parameter", `
			func apply(pick func(*Facts) int, f *Facts) int { return pick(f) }
			func judge(f *Facts) int { return apply(func(*Facts) int { return 0 }, f) }`, nil, true, nil},
		{"another package", `func judge(f *Facts) int { fmt.Println(f); return 0 }`, nil, true, nil},
		{"an interface", `func judge(f *Facts) int { var x any = f; _ = x; return 0 }`, nil, true, nil},
		{"not called", `
			func other(f *Facts) int { return f.A }
			func judge(f *Facts) int { return f.B }`, []string{"B"}, false, nil},
		{"a value holding it, to another package", `
			type scan struct{ f *Facts }
			func judge(f *Facts) int { fmt.Println([]scan{{f: f}}); return 0 }`, nil, true, nil},
		{"a value holding it, as an interface", `
			type scan struct{ f *Facts }
			func show(args ...any) string { return fmt.Sprint(args...) }
			func judge(f *Facts) int { _ = show(scan{f}); return 0 }`, nil, true, nil},
		{"a method only an interface calls", `
			type reader interface{ read() int }
			type view struct{ f *Facts }
			func (v view) read() int { return v.f.A }
			func judge(f *Facts) int { var r reader = view{f}; return r.read() }`, nil, false, []string{"view.read at p.go:8"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "package p\nimport \"fmt\"\nvar _ = fmt.Sprint\ntype Facts struct{ A, B, C int }\n" + c.src
			p := &typedPackage{fset: token.NewFileSet(), info: newInfo()}
			f, err := parser.ParseFile(p.fset, "p.go", src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			p.files = []*ast.File{f}
			conf := types.Config{Importer: importer.ForCompiler(p.fset, "gc", fmtData)}
			if p.pkg, err = conf.Check("p", p.fset, p.files, p.info); err != nil {
				t.Fatal(err)
			}
			g := newCallGraph(p)
			g.walk()
			judge := g.decls[p.pkg.Scope().Lookup("judge").(*types.Func)]
			reads, everything := g.reach(judge)
			var got []string
			for field := range reads {
				got = append(got, field)
			}
			slices.Sort(got)
			if diff := cmp.Diff(c.reads, got); diff != "" || (everything != "") != c.everything {
				t.Errorf("reads (-want +got):\n%s\nhands on: %q, want it to: %v", diff, everything, c.everything)
			}
			var hidden []string
			for _, n := range g.unnamedMethods() {
				if reads, _ := g.reach(n); len(reads) > 0 {
					hidden = append(hidden, n.name)
				}
			}
			if diff := cmp.Diff(c.hidden, hidden); diff != "" {
				t.Errorf("methods read only through an interface (-want +got):\n%s", diff)
			}
		})
	}
}
