package checks

// hardLinked is a note beside the root, hard-linked into it as
// sharedNote.
var (
	hardLinked = secretOutside("hardlinked-outside.md", "hardlinked-outside.md", "an outside file hard-linked into the root as shared-note.md", "hardlinkmark")
	sharedNote = &Plant{Name: "shared-note.md", Make: func(g *Ground) (Fixture, error) {
		note, err := g.Plant(hardLinked)
		if err != nil {
			return Fixture{}, err
		}
		return g.hardLink("shared-note.md", note.Path)
	}}
)

// check19Links probes a hard link to an outside file: its name is an
// ordinary file's, so only its public word is searched.
var check19Links = linkProbe{
	secrets: []*Plant{hardLinked},
	paths:   []string{"shared-note.md"},
	folders: func(*Facts) []string { return nil },
	planted: func(*Facts) string { return "shared-note.md is a hard link to a file outside the root" },
}

var check19 = &Check{
	ID:       "19",
	Section:  SectionBoundary,
	Title:    "a hard link to an outside file is not served (warn only: the specification names only symlinks)",
	Hint:     "Skip regular files with more than one hard link (st_nlink > 1): their content may live outside the root.",
	Fixtures: []*Plant{hardLinked, sharedNote},
	Warns:    true,
	Probe:    check19Links.probe,
	Tools:    check19Links.tools,
	// The specification names only symlinks: every finding is a warning.
	Needs: []need{needFixtures, needPathTools, needToolArgs, needResources, needNotes, needExchanges, needTimeLimit},
	Judge: func(f *Facts) Verdict {
		v := check19Links.judge(f)
		for i := range v.Findings {
			v.Findings[i].Warn = true
		}
		return v
	},
	Says: `\bhard ?links?\b|\bhardlinks?\b|\bnlink\b`,
}
