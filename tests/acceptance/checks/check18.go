package checks

import "path/filepath"

// dirSecret is a note in an outside folder of a random name, which
// linkedDir links to by its absolute path; chainTarget is the end of a
// chain of relative links, chain1 -> chain2 -> chainTarget.
var (
	dirSecret = &Plant{Name: "dir-secret.md", Make: func(g *Ground) (Fixture, error) {
		return g.secretNote(g.Base, "outsidedir"+g.Token(6)+"/dir-secret.md", "a file in the outside folder behind symlinked directory linked-dir", "linkdirmark")
	}}
	linkedDir = &Plant{Name: "linked-dir", Make: func(g *Ground) (Fixture, error) {
		note, err := g.Plant(dirSecret)
		if err != nil {
			return Fixture{}, err
		}
		return g.symlink("linked-dir", filepath.Dir(note.Path), true)
	}}
	chainTarget = secretOutside("chain-target.md", "chain-target.md", "the target of symlink chain chain-1.md -> nested-links/chain-2.md", "chainmark")
	chain2      = link("nested-links/chain-2.md", "../../chain-target.md", false)
	chain1      = link("chain-1.md", "nested-links/chain-2.md", false)
)

// check18Links probes a symlinked directory with an absolute target and a
// chain of relative links.
var check18Links = linkProbe{
	secrets: []*Plant{dirSecret, chainTarget},
	names:   []string{"linked-dir", "chain-1.md"},
	paths:   []string{"linked-dir/dir-secret.md", "chain-1.md", "nested-links/chain-2.md"},
	folders: func(*Facts) []string { return []string{"linked-dir", "chain-1.md"} },
	planted: func(*Facts) string {
		return "linked-dir -> an absolute outside directory, chain-1.md -> nested-links/chain-2.md -> ../../chain-target.md"
	},
}

var check18 = &Check{
	ID:       "18",
	Section:  SectionBoundary,
	Title:    "a symlinked directory with an absolute target and a chain of relative links are rejected",
	Hint:     "Check every path component, not only the last: refuse any symlink, or resolve the whole path and refuse targets outside the root.",
	Fixtures: []*Plant{dirSecret, chainTarget, linkedDir, chain2, chain1},
	Probe:    check18Links.probe,
	Tools:    check18Links.tools,
	Needs:    []need{needFixtures, needPathTools, needToolArgs, needResources, needNotes, needExchanges, needTimeLimit},
	Judge:    check18Links.judge,
	Test:     5,
	Says:     `\bsymlinked director\w*|\blink chains?\b|\bchains? of (?:relative )?links\b|\bdirectory links?\b|` + saysSymlink,
	Parts:    parts18,
	Forbids:  forbidsOutside,
}
