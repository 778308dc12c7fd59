package checks

import "path"

// siblingNote is in root-old, a sibling folder whose name starts with the
// root's; oldNotes links to the folder and archive to the note, by its
// absolute path.
var (
	siblingNote = secretOutside("private-notes.md", "root-old/private-notes.md", "root-old/private-notes.md, in a sibling folder whose name starts with the root's (behind old-notes and archive.md)", "siblingmark")
	oldNotes    = link("old-notes", "../root-old", true)
	archive     = &Plant{Name: "archive.md", Make: func(g *Ground) (Fixture, error) {
		note, err := g.Plant(siblingNote)
		if err != nil {
			return Fixture{}, err
		}
		return g.symlink("archive.md", note.Path, false)
	}}
)

// check17Links probes the links into the sibling folder whose name starts
// with the root's; the folders also go relative and absolute.
var check17Links = linkProbe{
	secrets: []*Plant{siblingNote},
	names:   []string{"old-notes", "archive.md"},
	paths:   []string{"old-notes/private-notes.md", "archive.md"},
	folders: func(f *Facts) []string {
		return []string{"old-notes", "archive.md", "../" + path.Base(siblingDir(f)), siblingDir(f)}
	},
	planted: func(*Facts) string {
		return "old-notes -> ../root-old and archive.md -> <base>/root-old/private-notes.md"
	},
}

var check17 = &Check{
	ID:       "17",
	Section:  SectionBoundary,
	Title:    "a symlink into a sibling folder whose name starts with the root's (root-old/) is rejected",
	Hint:     "Compare resolved paths with the root plus a separator (or use filepath.Rel / os.path.commonpath), never a bare startswith.",
	Fixtures: []*Plant{siblingNote, oldNotes, archive},
	Probe:    check17Links.probe,
	Tools:    check17Links.tools,
	Needs:    []need{needFixtures, needPathTools, needToolArgs, needResources, needNotes, needExchanges, needTimeLimit},
	Judge:    check17Links.judge,
	Test:     5,
	Says:     `\bsibling\b|\bprefix\b|\broot-old\b|\bstartswith\b|` + saysSymlink,
	Forbids:  forbidsOutside,
}
