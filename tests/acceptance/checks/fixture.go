package checks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"practice-notes/tests/acceptance/truth"
)

// A Plant is a fixture its check owns, declared next to the check and
// listed in its Fixtures: its name, and how it is planted, which gives
// its facts. Probes and judges find the facts by the value (Facts.of),
// so the join between a check and its fixtures is the compiler's to
// check, not a string's.
type Plant struct {
	// Name is what the facts, the transcripts and the leak rule call the
	// fixture; unique over all checks (TestFixturesOwnedOnce).
	Name string
	// Make plants the fixture on g, drawing its random words from g's
	// stream, and returns its facts: the zero Fixture for one that gives
	// none of its own (a link whose target another fixture describes).
	// It reads another fixture's facts through g.Plant, never directly.
	// A Text it gives is read again from the root (at Rel) whenever the
	// harness hands the facts on, so that a judge compares with the note
	// as it is.
	Make func(g *Ground) (Fixture, error)
}

// Ground is where a run plants its fixtures: the run's temp folder, the
// root inside it and the run's seeded stream of random words. Planting
// the same fixtures in the same order on the same stream makes the same
// files, links and words.
type Ground struct {
	Base string // the run's temp folder
	Root string // the practice root inside it
	// token returns n random bytes of the run's stream, in hex.
	token func(n int) string
	made  map[*Plant]Fixture
	order []*Plant
	links []Link
}

// NewGround returns a ground in base, its root at root, whose random
// words come from token.
func NewGround(base, root string, token func(n int) string) *Ground {
	return &Ground{Base: base, Root: root, token: token, made: map[*Plant]Fixture{}}
}

// Plant plants p once, the first time it is asked for, and returns its
// facts: a fixture that holds another's word asks for that one first.
func (g *Ground) Plant(p *Plant) (Fixture, error) {
	if f, ok := g.made[p]; ok {
		return f, nil
	}
	f, err := p.Make(g)
	if err != nil {
		return f, fmt.Errorf("planting %s: %w", p.Name, err)
	}
	g.made[p] = f
	g.order = append(g.order, p)
	return f, nil
}

// Facts returns the facts of every fixture planted, by name, with the
// run's temp folder as TempFolder.
func (g *Ground) Facts() map[string]Fixture {
	out := map[string]Fixture{TempFolder: {Path: g.Base}}
	for _, p := range g.order {
		if f := g.made[p]; !isZero(f) {
			out[p.Name] = f
		}
	}
	return out
}

// Secrets names the fixtures no reply may show (those with Words), in
// the order they were planted.
func (g *Ground) Secrets() []string {
	var out []string
	for _, p := range g.order {
		if len(g.made[p].Words) > 0 {
			out = append(out, p.Name)
		}
	}
	return out
}

// Links lists the links the fixtures made inside the root.
func (g *Ground) Links() []Link { return g.links }

// Token returns n random bytes of the run's stream, in hex.
func (g *Ground) Token(n int) string { return g.token(n) }

// Write writes content to rel under dir, making its folders.
func (g *Ground) Write(dir, rel, content string) error {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(content), 0o644)
}

// symlink makes the link rel inside the root, pointing at target as
// written.
func (g *Ground) symlink(rel, target string, dir bool) (Fixture, error) {
	p := filepath.Join(g.Root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return Fixture{}, err
	}
	if err := os.Symlink(target, p); err != nil {
		return Fixture{}, fmt.Errorf("creating symlink fixture: %w", err)
	}
	g.links = append(g.links, Link{Rel: rel, Dir: dir})
	return Fixture{}, nil
}

// hardLink makes rel inside the root a hard link to the file target.
func (g *Ground) hardLink(rel, target string) (Fixture, error) {
	if err := os.Link(target, filepath.Join(g.Root, filepath.FromSlash(rel))); err != nil {
		return Fixture{}, fmt.Errorf("creating hard link fixture: %w", err)
	}
	g.links = append(g.links, Link{Rel: rel, Hard: true})
	return Fixture{}, nil
}

// secretNote writes, at rel under dir, a note whose every line holds a
// random word of its own, with the public marker between two of them on
// one line: a reply holding any part of it beyond the marker shows a
// word the harness never sends.
func (g *Ground) secretNote(dir, rel, label, prefix string) (Fixture, error) {
	f := Fixture{
		Label:  label,
		Path:   filepath.Join(dir, filepath.FromSlash(rel)),
		Marker: prefix + "-" + g.token(5),
		Words:  []string{g.token(6), g.token(6), g.token(6), g.token(6)},
	}
	f.Text = fmt.Sprintf("# Private note %s\n\n%s %s %s must never be served.\nIts last line ends with %s.\n",
		f.Words[0], f.Words[1], f.Marker, f.Words[2], f.Words[3])
	return f, g.Write(dir, rel, f.Text)
}

// secretOutside is a secret note outside the root, under the temp folder.
func secretOutside(name, rel, label, prefix string) *Plant {
	return &Plant{Name: name, Make: func(g *Ground) (Fixture, error) { return g.secretNote(g.Base, rel, label, prefix) }}
}

// link is a symlink fixture inside the root whose target does not depend
// on the run.
func link(rel, target string, dir bool) *Plant {
	return &Plant{Name: rel, Make: func(g *Ground) (Fixture, error) { return g.symlink(rel, target, dir) }}
}

// pad appends numbered copies of line to the file at p until it holds
// more than the size limit plus 8 KiB; a multi-byte line must leave it
// under the limit in characters.
func pad(p, line string) error {
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	// Grown in place: a new string for every one of some 1,800 lines
	// copied the file over and over.
	for i := 0; len(b) <= truth.FileLimit+8*1024; i++ {
		b = fmt.Appendf(b, line, i)
	}
	if n := utf8.RuneCount(b); n >= truth.FileLimit && strings.Contains(line, "é") {
		return fmt.Errorf("%s has %d characters, not under %d", p, n, truth.FileLimit)
	}
	return os.WriteFile(p, b, 0o644)
}

// of returns the facts of the fixture p.
func (f *Facts) of(p *Plant) Fixture { return f.Fixtures[p.Name] }

// ownerOf returns the check that lists p in its Fixtures, nil for none.
func ownerOf(p *Plant) *Check {
	for _, c := range all {
		for _, q := range c.Fixtures {
			if q == p {
				return c
			}
		}
	}
	return nil
}

// plantNames lists the fixtures' names.
func plantNames(ps []*Plant) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// isZero reports whether f gives no facts.
func isZero(f Fixture) bool {
	return f.Rel == "" && f.Marker == "" && f.Proof == "" && f.Path == "" && f.Text == "" &&
		len(f.Files) == 0 && f.Count == 0 && f.Label == "" && len(f.Words) == 0
}
