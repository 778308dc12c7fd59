package script

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// writeNames are the functions and methods, in os, syscall,
// golang.org/x/sys/unix and os.Root alike, through which a program changes
// the file system, and the open flags that ask for writing.
var writeNames = map[string]bool{
	"Create": true, "CreateTemp": true, "WriteFile": true, "Remove": true, "RemoveAll": true,
	"Rename": true, "Renameat": true, "Renameat2": true, "Mkdir": true, "MkdirAll": true,
	"MkdirTemp": true, "Mkdirat": true, "Mknod": true, "Mknodat": true, "Mkfifo": true,
	"Chmod": true, "Fchmod": true, "Fchmodat": true, "Chown": true, "Lchown": true,
	"Fchown": true, "Fchownat": true, "Chtimes": true, "Utimes": true, "UtimesNano": true,
	"Futimes": true, "Link": true, "Linkat": true, "Symlink": true, "Symlinkat": true,
	"Truncate": true, "Ftruncate": true, "Unlink": true, "Unlinkat": true, "Rmdir": true,
	"Setxattr": true, "Removexattr": true, "Fallocate": true, "Pwrite": true,
	"O_WRONLY": true, "O_RDWR": true, "O_CREATE": true, "O_CREAT": true, "O_TRUNC": true,
	"O_APPEND": true, "O_EXCL": true,
}

// writeUses returns each use of a writeNames name in a Go source file, as
// "file:line name". A local function that happens to share a name counts
// too: the check errs on the side of refusing.
func writeUses(fset *token.FileSet, f *ast.File) []string {
	var uses []string
	ast.Inspect(f, func(n ast.Node) bool {
		var id *ast.Ident
		switch n := n.(type) {
		case *ast.SelectorExpr:
			id = n.Sel
		case *ast.CallExpr:
			id, _ = n.Fun.(*ast.Ident)
		case *ast.Ident:
			if strings.HasPrefix(n.Name, "O_") {
				id = n
			}
		}
		if id != nil && writeNames[id.Name] {
			p := fset.Position(id.Pos())
			uses = append(uses, filepath.Base(p.Filename)+":"+strconv.Itoa(p.Line)+" "+id.Name)
		}
		return true
	})
	return slices.Compact(uses)
}

// TestWriteUses: the scan finds each way of writing, and no read.
func TestWriteUses(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{`os.WriteFile("x", nil, 0)`, true},
		{`os.OpenFile("x", os.O_RDONLY|os.O_APPEND, 0)`, true},
		{`os.OpenFile("x", syscall.O_RDWR, 0)`, true},
		{`unix.Openat(fd, "x", unix.O_CREAT, 0)`, true},
		{`root.Remove("x")`, true},
		{`root.Create("x")`, true},
		{`os.Rename("a", "b")`, true},
		{`syscall.Unlinkat(fd, "x")`, true},
		{`f.Truncate(0)`, true},
		{`os.Chtimes("x", t, t)`, true},
		{`os.Symlink("a", "b")`, true},
		{`os.ReadFile("x")`, false},
		{`os.OpenFile("x", os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)`, false},
		{`root.Open("x")`, false},
		{`f.Stat()`, false},
		{`os.Stdout.Write(b)`, false},
	}
	for _, tt := range tests {
		src := "package p\nfunc f() {\n\t" + tt.src + "\n}\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", src, 0)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if got := writeUses(fset, f); (len(got) > 0) != tt.want {
			t.Errorf("%s: found %q; want a write found: %v", tt.src, got, tt.want)
		}
	}
}

// TestNoWriteCalls: no source file of the binary's own packages, for any
// platform, names a function that changes the file system or an open flag
// that asks for writing. This is what makes the server read-only: there
// is no code path that writes, so none can be reached.
func TestNoWriteCalls(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.Dir}}{{end}}{{end}}", ".")
	cmd.Dir = repo
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dirs := strings.Fields(string(out))
	if len(dirs) < 3 {
		t.Fatalf("go list found the packages %q; want at least main, boundary and search", dirs)
	}
	fset := token.NewFileSet()
	files := 0
	for _, dir := range dirs {
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(fset, name, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			files++
			for _, use := range writeUses(fset, f) {
				t.Errorf("%s: %s can change the file system", filepath.Base(dir), use)
			}
		}
	}
	if files < 10 {
		t.Errorf("scanned only %d files", files)
	}
}

// TestSeamOnlyInTests: no package of the program but boundary, which
// declares the test options, imports boundary/seam, so no code of the
// program can set a fault hook or a shorter settle time on a Root.
func TestSeamOnlyInTests(t *testing.T) {
	const seamPath = "practice-notes/boundary/seam"
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.ImportPath}} {{join .Imports \",\"}}{{end}}{{end}}", ".")
	cmd.Dir = repo
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var importers []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		if slices.Contains(strings.Split(imports, ","), seamPath) {
			importers = append(importers, pkg)
		}
	}
	if want := []string{"practice-notes/boundary"}; !slices.Equal(importers, want) {
		t.Errorf("packages of the program importing %s: %q; want only %q", seamPath, importers, want)
	}
}
