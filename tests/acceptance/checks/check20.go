package checks

var check20 = &Check{
	ID:       "20",
	Section:  SectionBoundary,
	Title:    "a FIFO named like a note, a directory named x.md, a dangling link and a binary file neither hang nor break a search",
	Hint:     "Before reading, lstat each entry and read only regular files (skip FIFOs, directories, sockets and broken links); skip files that are not valid UTF-8 text.",
	Fixtures: []string{"pipe-note.md", "folder.md", "dangling-note.md", "binary-note.md", TrapPhrase},
}
