//go:build unix

package boundary

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzSecret is in every file outside the root of the fuzz tree.
const fuzzSecret = "FUZZ-OUTSIDE-SECRET"

// fuzzTree builds base/root with regular notes, and links of every kind
// pointing inside and outside it, next to base/outside and base/root-evil
// (a sibling whose name starts with the root's).
func fuzzTree(t testing.TB) (rootDir string) {
	base := t.TempDir()
	rootDir = filepath.Join(base, "root")
	files := map[string]string{
		"outside/secret.md":             fuzzSecret,
		"outside/sub/deep.md":           fuzzSecret,
		"root-evil/x.md":                fuzzSecret,
		"root/note.md":                  "inside note\n",
		"root/sub/inner.md":             "inside inner\n",
		"root/sub/deeper/leaf.txt":      "inside leaf\n",
		"root/é/ü.markdown":             "inside unicode\n",
		"root/..md":                     "inside dots\n",
		"root/a..b.md":                  "inside dots 2\n",
		"root/space name.md":            "inside space\n",
		"root/UPPER.MD":                 "inside upper\n",
		"root/sub/..hidden/x.md":        "inside hidden\n",
		"root/trailing-dot.md.":         "not a note\n",
		"root/sub/deeper/deepest/z.txt": "inside deepest\n",
	}
	for name, text := range files {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"root/link.md":           "../outside/secret.md",
		"root/abs.md":            filepath.Join(base, "outside/secret.md"),
		"root/dirlink":           "../outside",
		"root/absdir":            filepath.Join(base, "outside"),
		"root/sub/up.md":         "../../outside/secret.md",
		"root/sub/uplink":        "../..",
		"root/inlink.md":         "note.md",
		"root/indir":             "sub",
		"root/loop.md":           "loop.md",
		"root/dangling.md":       "missing.md",
		"root/evil":              "../root-evil",
		"root/sub/deeper/root":   "../../../root",
		"root/zero.md":           "/dev/zero",
		"root/proc.md":           "/proc/self/environ",
		"root/sub/deeper/esc.md": "../../../outside/sub/deep.md",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(base, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(filepath.Join(base, "outside/secret.md"), filepath.Join(rootDir, "hard.md")); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, filepath.Join(rootDir, "fifo.md"))
	return rootDir
}

// FuzzCheckName checks every name the fuzzer makes against a reference
// built on filepath.IsLocal, then reads it from a real tree full of links:
// an accepted name is always local, and reading it never returns a byte
// from outside the root or from behind a link.
func FuzzCheckName(f *testing.F) {
	for _, s := range []string{
		"note.md", "sub/inner.md", "sub/deeper/leaf.txt", "é/ü.markdown", "..md", "a..b.md",
		"space name.md", "UPPER.MD", "sub/..hidden/x.md", "trailing-dot.md.",
		"link.md", "abs.md", "dirlink/secret.md", "absdir/secret.md", "sub/up.md",
		"sub/uplink/outside/secret.md", "inlink.md", "indir/inner.md", "loop.md", "dangling.md",
		"evil/x.md", "sub/deeper/root/note.md", "zero.md", "proc.md", "sub/deeper/esc.md",
		"hard.md", "fifo.md", "missing.md",
		"../outside/secret.md", "../root-evil/x.md", "sub/../../outside/secret.md",
		"/etc/passwd.md", "//note.md", "./note.md", "sub/./inner.md", "sub//inner.md",
		"note.md/", "sub\\inner.md", "..\\outside\\secret.md", "C:note.md", "c:/x.md",
		"\\\\server\\share\\x.md", "note.md\x00", "\x00", "", ".", "..", "...", ".md",
		"sub/..", "sub/...md", "NUL.md", "CON", "note.md:stream", "a/b/c/d/e/f/g/h/i/j.md",
		"a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q.md", "a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r.md", ".private/diary.md", ".hidden.md",
		"\u202enote.md", "note\u2024md", "ſub/inner.md", "K.md",
		"\xff.md", "sub/\xfe.md", "\uFFFD.md", strings.Repeat("n", 256) + ".md",
		strings.Repeat(strings.Repeat("d", 250)+"/", 16) + strings.Repeat("n", 80) + ".md",
	} {
		f.Add(s)
	}
	rootDir := fuzzTree(f)
	root, err := Open(rootDir)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { root.Close() })
	known := append([]error{errInvalidName, ErrNotFound, errSymlink, errHardLinks, errTooLarge, errNotRegular, errNotText, errNotNote, errUnreadable, errHidden, errTooDeep, errMountPoint, errNameNotUTF8, errNameTooLong, errReplaced, errDirReplaced}, osReasons...)
	ctx := context.Background()

	f.Fuzz(func(t *testing.T, name string) {
		checkErr := checkName(name)
		native := filepath.FromSlash(name)
		local := filepath.IsLocal(native) && !strings.ContainsAny(name, "\\\x00") && path.Clean(name) == name
		// The note rule: no element starting with a dot, at most MaxDepth
		// directories.
		ruled := !strings.HasPrefix(name, ".") && !strings.Contains(name, "/.") && strings.Count(name, "/") <= MaxDepth
		// And a name the kernel can open whole, in UTF-8.
		for elem := range strings.SplitSeq(name, "/") {
			ruled = ruled && len(elem) <= 255
		}
		ruled = ruled && len(name) <= 4095 && utf8.ValidString(name)
		if checkErr == nil {
			if !local || !ruled || strings.HasPrefix(name, "/") || !isNoteName(name) {
				t.Fatalf("checkName accepted %q, which the reference refuses", name)
			}
			joined := filepath.Join(rootDir, native)
			if !strings.HasPrefix(joined, rootDir+string(filepath.Separator)) {
				t.Fatalf("accepted %q resolves to %q, outside %q", name, joined, rootDir)
			}
		} else if local && ruled && isNoteName(name) && !(len(name) >= 2 && name[1] == ':') {
			// Local, clean and a note name, without what would be a drive
			// letter on Windows: nothing should refuse it.
			t.Fatalf("checkName refused %q, which the reference accepts: %v", name, checkErr)
		}

		data, err := root.ReadNote(ctx, name)
		if err != nil {
			var be *Error
			if !errors.As(err, &be) {
				t.Fatalf("ReadNote(%q) failed with %T %v; want an *Error", name, err, err)
			}
			if !containsErr(known, be.Reason) {
				t.Fatalf("ReadNote(%q): unknown reason %v", name, be.Reason)
			}
			if msg := err.Error(); strings.Contains(msg, rootDir) || strings.Contains(msg, filepath.Dir(rootDir)) {
				t.Fatalf("ReadNote(%q) error carries an absolute path: %q", name, msg)
			}
			return
		}
		if checkErr != nil {
			t.Fatalf("ReadNote(%q) read a name checkName refuses", name)
		}
		if bytes.Contains(data, []byte(fuzzSecret)) {
			t.Fatalf("ReadNote(%q) returned a file from outside the root", name)
		}
		// What was read is the regular file at that very path, reached
		// without any link.
		joined := filepath.Join(rootDir, native)
		real, err := filepath.EvalSymlinks(joined)
		if err != nil || real != joined {
			t.Fatalf("ReadNote(%q) read through a link: %q resolves to %q (%v)", name, joined, real, err)
		}
		want, err := os.ReadFile(joined)
		if err != nil || !bytes.Equal(data, want) {
			t.Fatalf("ReadNote(%q) = %q; the file holds %q (%v)", name, data, want, err)
		}
	})
}

func containsErr(list []error, err error) bool {
	for _, e := range list {
		if e == err {
			return true
		}
	}
	return false
}
