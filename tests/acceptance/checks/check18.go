package checks

// check18Links probes a symlinked directory with an absolute target and a
// chain of relative links.
var check18Links = linkProbe{
	secrets: []string{"dir-secret.md", "chain-target.md"},
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
	Fixtures: []string{"dir-secret.md", "chain-target.md", "linked-dir", "nested-links/chain-2.md", "chain-1.md"},
	Probe:    check18Links.probe,
	Tools:    check18Links.tools,
	Needs:    []need{needFixtures, needPathTools, needToolArgs, needResources, needNotes, needExchanges, needTimeLimit},
	Judge:    check18Links.judge,
	Test:     5,
	Says:     `\bsymlinked director\w*|\blink chains?\b|\bchains? of (?:relative )?links\b|\bdirectory links?\b|` + saysSymlink,
	Parts:    parts18,
	Forbids:  forbidsOutside,
}
