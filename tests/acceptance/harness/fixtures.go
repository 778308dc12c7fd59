package harness

import (
	cryptorand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/truth"
)

// layout is the per-run temp directory: the practice root plus the
// fixtures the checks own, planted inside and outside it by their values
// (checks.Plant). The harness knows no fixture by name: what it needs of
// them comes from what they gave when planted.
type layout struct {
	// Seed is the hex seed every random word of the fixtures comes from.
	Seed     string
	rng      *rand.ChaCha8
	Base     string // temp dir as created
	BaseReal string // Base with symlinks resolved (differs on macOS)
	Root     string // Base/root, handed to the server

	SampleRel string // "sample-notes.md"
	Sample    string // its content ("" if missing)
	N2        []paragraph
	N2Section paragraph // the whole N2 note: heading to the next heading
	N2Err     error

	// planted holds the facts of every fixture, by name, as planted.
	planted map[string]checks.Fixture
	// secrets names the fixtures no reply may show, for the leak rule.
	secrets []string
	// links are the links the fixtures made inside the root.
	links []checks.Link
	// outsideNames are the entries of Base besides the root: a reply
	// that lists several of them lists a folder outside the root.
	outsideNames []string

	// paras holds the paragraphs of every regular note in the root, for
	// telling which note's text a reply holds.
	paras []paragraph
}

// newSeed returns a fresh layout seed from the system's random source.
func newSeed() [32]byte {
	var seed [32]byte
	if _, err := cryptorand.Read(seed[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return seed
}

// token returns n random bytes of the layout's stream, in hex.
func (l *layout) token(n int) string {
	b := make([]byte, n)
	_, _ = l.rng.Read(b) // ChaCha8's Read never fails
	return hex.EncodeToString(b)
}

// buildLayout creates the temp dir, copies practice data into root and
// plants the checks' fixtures, whose random words all come from seed:
// the same seed and practice data make the same fixtures (in another
// temp dir). It returns the layout even on error so the caller can clean
// up.
func buildLayout(practiceData string, seed [32]byte) (*layout, error) {
	st, err := os.Stat(practiceData)
	if err != nil {
		return nil, fmt.Errorf("practice data: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("practice data %s is not a directory", practiceData)
	}
	base, err := mkdirTempFixed("practice-notes-acceptance-")
	if err != nil {
		return nil, err
	}
	base, err = filepath.Abs(base)
	if err != nil {
		return nil, err
	}
	return plantLayout(base, practiceData, seed)
}

// mkdirTempFixed makes a new folder in the system's temp folder, named
// prefix and ten random digits. os.MkdirTemp's digits vary in number, and
// the folder's name is in replies and in texts the report cuts to a fixed
// width: a name of one width makes two runs with one seed cut alike.
func mkdirTempFixed(prefix string) (string, error) {
	for range 10000 {
		// Not the layout's stream: the name must not move its words.
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("%s%010d", prefix, rand.Uint32()))
		err := os.Mkdir(dir, 0o700)
		if !errors.Is(err, fs.ErrExist) {
			return dir, err
		}
	}
	return "", fmt.Errorf("no new folder %s* in %s after 10000 tries", prefix, os.TempDir())
}

// plantLayout fills the empty folder base with the practice data and the
// fixtures of every check, in report order and each check's fixture
// order, drawing their words from seed: planted again in the same folder
// with the same seed, they are the same files, links and words.
func plantLayout(base, practiceData string, seed [32]byte) (*layout, error) {
	var err error
	// A server running as a uid of its own must reach the fixtures.
	if err := os.Chmod(base, 0o755); err != nil {
		return nil, err
	}
	l := &layout{Base: base, Root: filepath.Join(base, "root"), SampleRel: "sample-notes.md",
		Seed: hex.EncodeToString(seed[:]), rng: rand.NewChaCha8(seed)}
	if l.BaseReal, err = filepath.EvalSymlinks(base); err != nil {
		return l, err
	}
	if err := copyTree(practiceData, l.Root); err != nil {
		return l, fmt.Errorf("copying practice data: %w", err)
	}
	l.readSample()
	g := checks.NewGround(base, l.Root, l.token)
	for _, c := range checks.All() {
		for _, p := range c.Fixtures {
			if _, err := g.Plant(p); err != nil {
				return l, fmt.Errorf("check %s: %w", c.ID, err)
			}
		}
	}
	l.planted, l.secrets, l.links = g.Facts(), g.Secrets(), g.Links()
	// What servers get wrong (line endings, length-changing case folds,
	// separators, a phrase's words apart), each with its true answer:
	// judged under checks 1, 10 and 11, owned by none of them alone.
	hardNotes, _ := truth.HardCases()
	for _, n := range hardNotes {
		if err := g.Write(l.Root, n.Rel, n.Text); err != nil {
			return l, err
		}
	}
	entries, err := os.ReadDir(base)
	if err != nil {
		return l, err
	}
	for _, e := range entries {
		if e.Name() != "root" {
			l.outsideNames = append(l.outsideNames, e.Name())
		}
	}
	l.paras = l.rootParagraphs()
	return l, nil
}

// fixtures returns the fixtures' facts for a judge: as planted, with the
// Text of a note in the root that gives one read again from the root (""
// once it is gone, which no read equals). A secret note outside keeps
// its Text as planted, for the leak rule.
func (l *layout) fixtures() map[string]checks.Fixture {
	out := make(map[string]checks.Fixture, len(l.planted))
	for name, f := range l.planted {
		if f.Text != "" && f.Rel != "" {
			f.Text, _ = l.rootFile(f.Rel)
		}
		out[name] = f
	}
	return out
}

// readSample reads the practice data's sample note and its N2 passage.
func (l *layout) readSample() {
	if b, err := os.ReadFile(filepath.Join(l.Root, l.SampleRel)); err == nil {
		l.Sample = string(b)
		l.N2, l.N2Err = checks.FindNoteParagraphs(l.Sample, "N2", "sign-in")
		l.N2 = slices.DeleteFunc(l.N2, func(p paragraph) bool { return checks.HeadingLevel(p.Text) > 0 && !strings.Contains(p.Text, "\n") })
		if l.N2Err == nil && len(l.N2) == 0 {
			l.N2Err = errors.New("note N2 has no paragraph containing \"sign-in\" besides its heading")
		}
		if l.N2Err == nil {
			l.N2Section, _ = checks.NoteSection(l.Sample, "N2")
		}
	} else {
		l.N2Err = fmt.Errorf("practice data has no %s: %w", l.SampleRel, err)
	}
}

// rootParagraphs reads every regular note in the root (no links, no hard
// links) and splits it at blank lines and headings.
func (l *layout) rootParagraphs() []paragraph {
	var out []paragraph
	_ = filepath.WalkDir(l.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(l.Root, p)
		if slices.ContainsFunc(l.links, func(ln checks.Link) bool { return ln.Hard && ln.Rel == filepath.ToSlash(rel) }) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil || len(b) > truth.FileLimit {
			return nil
		}
		for _, para := range checks.SplitParagraphs(string(b)) {
			if len(para.Text) >= 12 {
				para.File = filepath.ToSlash(rel)
				out = append(out, para)
			}
		}
		return nil
	})
	return out
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
