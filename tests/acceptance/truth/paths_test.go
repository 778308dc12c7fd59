package truth

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResolve(t *testing.T) {
	roots := []string{"/tmp/run/root", "/private/tmp/run/root"}
	onMachine := map[string]bool{
		"/tmp/run/root/a.md":            true,
		"/tmp/run/root/sub/b.md":        true,
		"/tmp/run/root/obs/note.md":     true,
		"/tmp/run/root/sample-notes.md": true,
		"/etc/passwd":                   true,
		"/tmp/run/root/etc/passwd":      true,
		"/sample-notes.md":              false,
	}
	exists := func(p string) bool { return onMachine[p] }
	in := func(rel string) Place { return Place{Inside: true, Rel: rel} }
	out := func(p string) Place { return Place{Path: p} }
	tests := []struct {
		name string
		want Place
	}{
		{"a.md", in("a.md")},
		{"./a.md", in("a.md")},
		{"sub/../a.md", in("a.md")},
		{`sub\b.md`, in("sub/b.md")},
		{`.\sub\b.md`, in("sub/b.md")},
		{"  a.md  ", in("a.md")},
		{"../outside.md", out("/tmp/run/outside.md")},
		{`..\outside.md`, out("/tmp/run/outside.md")},
		{"sub/../../root/a.md", in("a.md")},
		{"sub/../../root-old/p.md", out("/tmp/run/root-old/p.md")},
		{"/tmp/run/root/a.md", in("a.md")},
		{"/private/tmp/run/root/sub/b.md", in("sub/b.md")},
		{"/tmp/run/root", in(".")},
		{"/tmp/run/root/../outside.md", out("/tmp/run/outside.md")},
		{"/tmp/run/root-old/private-notes.md", out("/tmp/run/root-old/private-notes.md")},
		{"/sample-notes.md", in("sample-notes.md")},
		{"/missing.md", out("/missing.md")},
		{"/etc/passwd", out("/etc/passwd")},
		{`C:\notes\root\a.md`, out("C:/notes/root/a.md")},
		{"file:///tmp/run/root/a.md", in("a.md")},
		{"file://localhost/tmp/run/root/sub/b.md", in("sub/b.md")},
		{"file:///tmp/run/root/a%20b.md", in("a b.md")},
		{"file:///tmp/run/outside.md", out("/tmp/run/outside.md")},
		{"file:///sample-notes.md", in("sample-notes.md")},
		{"file://server/share/a.md", out("//server/share/a.md")},
		{"notes:///a.md", in("a.md")},
		{"notes://a.md", in("a.md")},
		{"practice-notes:///sub/b.md", in("sub/b.md")},
		{"obsidian://vault/a.md", in("a.md")},
		{"obsidian://vault/sub/b.md", in("sub/b.md")},
		{"obsidian://sub/b.md", in("sub/b.md")},
		{"obsidian://vault/new.md", in("new.md")},
		{"obsidian://open?vault=notes&file=obs%2Fnote", in("obs/note.md")},
		{"obsidian://open?vault=notes&file=sub/b.md", in("sub/b.md")},
		{"obsidian://open?vault=notes&file=..%2Foutside.md", out("/tmp/run/outside.md")},
		{"notes://../../../work/x.md", out("/work/x.md")},
		{"notes:///../outside.md", out("/tmp/run/outside.md")},
		{"vault://v/etc/passwd", in("etc/passwd")},
	}
	winRoots := []string{"C:/Users/ada/practice-data"}
	for name, want := range map[string]Place{
		`C:\Users\ada\practice-data\sub\b.md`:     in("sub/b.md"),
		`c:\users\ada\Practice-Data\a.md`:         in("a.md"),
		`C:\Users\ada\practice-data-old\a.md`:     out("C:/Users/ada/practice-data-old/a.md"),
		"file:///C:/Users/ada/practice-data/a.md": in("a.md"),
		`C:\Users\ada\practice-data\..\x.md`:      out("C:/Users/ada/x.md"),
		`..\x.md`:                                 out("C:/Users/ada/x.md"),
	} {
		if got, _ := Resolve(name, winRoots, exists); got != want {
			t.Errorf("Resolve(%q) under %s = %+v, want %+v", name, winRoots[0], got, want)
		}
	}
	for _, tt := range tests {
		got, ok := Resolve(tt.name, roots, exists)
		if !ok {
			t.Errorf("Resolve(%q) names no path", tt.name)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Resolve(%q) (-want +got):\n%s", tt.name, diff)
		}
	}
	for _, name := range []string{"", "   ", "notes://", "file://"} {
		if got, ok := Resolve(name, roots, exists); ok {
			t.Errorf("Resolve(%q) = %+v, want no path", name, got)
		}
	}
}
