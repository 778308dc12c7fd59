package harness

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// FileLimit is the largest file, in bytes, that the contract lets a server
// search. The oversized fixture is bigger than this.
const FileLimit = 102400

// MaxQueryRunes is the longest query the contract accepts.
const MaxQueryRunes = 200

// MaxPassages is the most passages one search may return.
const MaxPassages = 10

// secret is a file the server must never serve: it lives outside the root
// (or is reachable from the root only through a symlink).
type secret struct {
	Label  string   // human description
	Path   string   // absolute path of the file holding the marker
	Marker string   // phrase the harness searches for
	Canary string   // word on the same line that the harness never sends
	Checks []string // checks that fail when this secret shows up anywhere
}

// layout is the per-run temp directory: the practice root plus fixtures
// inside and outside it.
type layout struct {
	Base     string // temp dir as created
	BaseReal string // Base with symlinks resolved (differs on macOS)
	Root     string // Base/root, handed to the server

	SampleRel string // "sample-notes.md"
	Sample    string // its content ("" if missing)
	N2        []paragraph
	N2Err     error

	ValidRel    string
	ValidMarker string
	ValidProof  string

	OversizeRel    string
	OversizeMarker string
	OversizeCanary string

	BoundRel    string
	BoundMarker string
	BoundCount  int

	Absent string

	OutsideMD  string // Base/outside.md
	AbsOutside string // another outside file, queried by absolute path

	Secrets  []secret
	Symlinks map[string]string // link path relative to root -> target as written
}

func token(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b)
}

// buildLayout creates the temp dir, copies practice data into root and adds
// the fixtures. It returns the layout even on error so the caller can clean up.
func buildLayout(practiceData string) (*layout, error) {
	st, err := os.Stat(practiceData)
	if err != nil {
		return nil, fmt.Errorf("practice data: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("practice data %s is not a directory", practiceData)
	}
	base, err := os.MkdirTemp("", "practice-notes-acceptance-")
	if err != nil {
		return nil, err
	}
	base, err = filepath.Abs(base)
	if err != nil {
		return nil, err
	}
	l := &layout{Base: base, Root: filepath.Join(base, "root"), SampleRel: "sample-notes.md", Symlinks: map[string]string{}}
	if l.BaseReal, err = filepath.EvalSymlinks(base); err != nil {
		return l, err
	}
	if err := copyTree(practiceData, l.Root); err != nil {
		return l, fmt.Errorf("copying practice data: %w", err)
	}
	if b, err := os.ReadFile(filepath.Join(l.Root, l.SampleRel)); err == nil {
		l.Sample = string(b)
		l.N2, l.N2Err = findNoteParagraphs(l.Sample, "N2", "sign-in")
	} else {
		l.N2Err = fmt.Errorf("practice data has no %s: %w", l.SampleRel, err)
	}

	// A valid note in a nested directory (check 3).
	l.ValidRel = "extra/nested/valid-note.md"
	l.ValidMarker = "validmark-" + token(5)
	l.ValidProof = "validproof" + token(6)
	if err := write(l.Root, l.ValidRel, fmt.Sprintf(
		"# Valid fixture note\n\nThis fixture holds the phrase %s for the read check,\nfollowed by the proof word %s on the same paragraph.\n",
		l.ValidMarker, l.ValidProof)); err != nil {
		return l, err
	}

	// Many matching paragraphs in one file (result bound, check 6).
	l.BoundRel = "extra/bounded-results.md"
	l.BoundMarker = "boundmark-" + token(5)
	l.BoundCount = 12
	var bound strings.Builder
	bound.WriteString("# Bounded results fixture\n")
	for i := 1; i <= l.BoundCount; i++ {
		fmt.Fprintf(&bound, "\nBounded result %02d mentions %s once.\n", i, l.BoundMarker)
	}
	if err := write(l.Root, l.BoundRel, bound.String()); err != nil {
		return l, err
	}

	// An oversized file inside the root (check 6).
	l.OversizeRel = "oversized-notes.md"
	l.OversizeMarker = "oversizemark-" + token(5)
	l.OversizeCanary = "oversizecanary" + token(6)
	var big strings.Builder
	fmt.Fprintf(&big, "# Oversized fixture\n\nThe phrase %s sits here beside %s.\n", l.OversizeMarker, l.OversizeCanary)
	for i := 0; big.Len() <= FileLimit+8*1024; i++ {
		fmt.Fprintf(&big, "\nFiller paragraph %05d keeps this file above the size limit.\n", i)
	}
	if err := write(l.Root, l.OversizeRel, big.String()); err != nil {
		return l, err
	}

	l.Absent = "absentphrase-" + token(6)

	// Outside the root.
	newSecret := func(label, rel, prefix string, checks ...string) (secret, error) {
		s := secret{
			Label:  label,
			Path:   filepath.Join(base, rel),
			Marker: prefix + "-" + token(5),
			Canary: prefix + "canary" + token(6),
			Checks: checks,
		}
		content := fmt.Sprintf("# Outside the practice root\n\nThis file must never be served: %s\ncarries the canary %s on the next line.\n", s.Marker, s.Canary)
		return s, write(base, rel, content)
	}
	outside, err := newSecret("../outside.md (also the target of symlink escape-link.md)", "outside.md", "outsidemark", "4", "5")
	if err != nil {
		return l, err
	}
	l.OutsideMD = outside.Path
	absolute, err := newSecret("file at an absolute path outside the root", "elsewhere/absolute-secret.md", "absolutemark", "4")
	if err != nil {
		return l, err
	}
	l.AbsOutside = absolute.Path
	linkdir, err := newSecret("file in an outside directory reached through symlinked directory linked-dir", "outside-dir/dir-secret.md", "linkdirmark", "5")
	if err != nil {
		return l, err
	}
	chain, err := newSecret("target of symlink chain chain-1.md -> nested-links/chain-2.md -> outside", "chain-target.md", "chainmark", "5")
	if err != nil {
		return l, err
	}
	l.Secrets = []secret{outside, absolute, linkdir, chain}

	links := []struct{ rel, target string }{
		{"escape-link.md", "../outside.md"},
		{"linked-dir", filepath.Join(base, "outside-dir")},
		{"nested-links/chain-2.md", "../../chain-target.md"},
		{"chain-1.md", "nested-links/chain-2.md"},
	}
	for _, ln := range links {
		p := filepath.Join(l.Root, filepath.FromSlash(ln.rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return l, err
		}
		if err := os.Symlink(ln.target, p); err != nil {
			return l, fmt.Errorf("creating symlink fixture: %w", err)
		}
		l.Symlinks[ln.rel] = ln.target
	}
	return l, nil
}

func write(dir, rel, content string) error {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(content), 0o644)
}

// copyTree copies regular files and directories from src to dst. Symlinks
// and special files in the practice data are not copied.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, b, 0o644)
		default:
			return nil
		}
	})
}

// RemoveAll deletes the temp dir.
func (l *layout) remove() error {
	if l == nil || l.Base == "" {
		return nil
	}
	return os.RemoveAll(l.Base)
}

var errSymlink = errors.New("path goes through a symlink")

// rootFile reads a file named by a server reply, refusing anything that is not
// a regular, non-symlinked file inside the root.
func (l *layout) rootFile(rel string) (string, error) {
	if rel == "" || !filepath.IsLocal(filepath.FromSlash(rel)) || strings.Contains(rel, `\`) {
		return "", fmt.Errorf("%q is not a relative path inside the root", rel)
	}
	cur := l.Root
	parts := strings.Split(rel, "/")
	for _, part := range parts {
		cur = filepath.Join(cur, part)
		st, err := os.Lstat(cur)
		if err != nil {
			return "", err
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			return "", fmt.Errorf("%q: %w", rel, errSymlink)
		}
	}
	st, err := os.Lstat(cur)
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() {
		return "", errors.New("not a regular file")
	}
	b, err := os.ReadFile(cur)
	return string(b), err
}
