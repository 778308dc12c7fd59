package harness

// checkDef names a check and says what to fix when it fails.
type checkDef struct {
	ID      string
	Section string
	Title   string
	Hint    string // default one-sentence fix
}

// catalog lists every check in report order. Ids 1-8 are the
// specification's acceptance tests in its numbering.
var catalog = []checkDef{
	{"1", SectionAcceptance, "sign-in returns the exact N2 passage from sample-notes.md",
		"Return the N2 paragraph byte-for-byte (split at blank lines, no reflowing or trimming inside) and name sample-notes.md as its source."},
	{"2", SectionAcceptance, "an absent phrase returns no matches and no invented passage",
		"When nothing matches, return an empty list and a plain no-match message; never compose a passage that is not in a file."},
	{"3", SectionAcceptance, "a valid file inside the root is readable",
		"Search every regular .md file under the root, including subdirectories, and name the file each passage came from."},
	{"4", SectionAcceptance, "../outside.md and an absolute path outside the root are rejected",
		"Resolve every path against the root and refuse absolute paths and any path that leaves it (check after cleaning, with a path separator)."},
	{"5", SectionAcceptance, "a symlink inside the root pointing outside is rejected, no leaked bytes",
		"Do not follow symlinks (lstat each entry, open with O_NOFOLLOW), or resolve them and refuse targets outside the root."},
	{"6", SectionAcceptance, "an oversized query and an oversized file produce bounded errors",
		"Refuse queries over 200 characters with a clear error, skip files over 100 KB without reading them, return at most 10 passages, and answer every call promptly."},
	{"7", SectionAcceptance, "checksums and mtimes of every fixture are unchanged, no file created or removed",
		"Open notes read-only and write nothing: no caches, logs or history files inside or outside the root."},
	{"8", SectionAcceptance, "tool discovery and tool call over stdio with a separate process, clean stdout, exit on stdin close",
		"Offer search_notes with a query property in tools/list, answer tools/call, keep stdout for JSON-RPC only (log to stderr) and exit when stdin closes."},
}

func lookupDef(id string) checkDef {
	for _, d := range catalog {
		if d.ID == id {
			return d
		}
	}
	return checkDef{ID: id}
}

// CheckIDs lists every check id in report order.
func CheckIDs() []string {
	ids := make([]string, len(catalog))
	for i, d := range catalog {
		ids[i] = d.ID
	}
	return ids
}
