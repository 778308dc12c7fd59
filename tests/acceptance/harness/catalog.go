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

	{"8.1", SectionProtocol, "ping is answered with an empty result",
		"Answer ping with {} (the official SDKs do this for you)."},
	{"8.2", SectionProtocol, "a string request id is echoed unchanged",
		"Copy the request's id into the reply as it came, string or number."},
	{"8.3", SectionProtocol, "an unknown method gets error -32601",
		"Answer a method you do not implement with JSON-RPC error -32601 (method not found)."},
	{"8.4", SectionProtocol, "a call to an unknown tool gets a JSON-RPC error",
		"Answer tools/call for a tool you do not offer with a JSON-RPC error (-32602), not a result."},
	{"8.5", SectionProtocol, "a line that is not JSON gets -32700 and the session lives on",
		"Answer a line that does not parse with error -32700 (id null) and keep reading; do not exit."},
	{"8.6", SectionProtocol, "initialize with the older revision 2024-11-05 is answered with that revision",
		"When initialize asks for a revision you support, answer with that same revision."},
	{"8.7", SectionProtocol, "initialize declares the tools capability",
		"Declare \"tools\": {} in the capabilities of your initialize result."},

	{"9", SectionTool, "SIGN-IN and Sign-In find the same N2 passage as sign-in",
		"Compare case-insensitively: lower-case (or case-fold) both the query and the text before matching, but return the passage as written."},
	{"10", SectionTool, "a non-ASCII phrase in another case is found (CRÈME-BRÛLÉE finds crème-brûlée)",
		"Use a Unicode-aware case fold (Go strings.EqualFold/ToLower, Python str.casefold, JavaScript toLowerCase), not an ASCII-only one."},
	{"11", SectionTool, "the query is a literal phrase: sign.in, (N2), [ and * match only themselves",
		"Search for the query as plain text (substring search); never compile it as a regular expression or glob."},
	{"12", SectionTool, "empty, whitespace-only, missing and non-string queries are refused or find nothing",
		"Refuse a query that is missing, not a string, empty or only whitespace with a clear error before searching."},
	{"13", SectionTool, "no caller-selected root: root and path arguments pointing outside return no outside byte",
		"Search only the root given at startup; refuse (or at least ignore) any root, path or directory argument."},
	{"14", SectionTool, "one read-only tool: tools/list offers search_notes and nothing that writes, before and after a note asks for more",
		"Offer only search_notes (mark it readOnlyHint: true if you annotate it) and never add tools at run time."},
	{"15", SectionTool, "the same call twice gives the same answer",
		"Make results deterministic: walk files in sorted order and keep no state between calls."},
	{"16", SectionTool, "nothing is written into HOME or TMPDIR (fresh empty folders, checked after every process)",
		"Do not write history, caches or logs anywhere; log to stderr only."},

	{"17", SectionBoundary, "a symlink into a sibling folder whose name starts with the root's (root-old/) is rejected",
		"Compare resolved paths with the root plus a separator (or use filepath.Rel / os.path.commonpath), never a bare startswith."},
	{"18", SectionBoundary, "a symlinked directory with an absolute target and a chain of relative links are rejected",
		"Check every path component, not only the last: refuse any symlink, or resolve the whole path and refuse targets outside the root."},
	{"19", SectionBoundary, "a hard link to an outside file is not served (warn only: the specification names only symlinks)",
		"Skip regular files with more than one hard link (st_nlink > 1): their content may live outside the root."},
	{"20", SectionBoundary, "a FIFO named like a note, a directory named x.md, a dangling link and a binary file neither hang nor break a search",
		"Before reading, lstat each entry and read only regular files (skip FIFOs, directories, sockets and broken links); skip files that are not valid UTF-8 text."},
	{"21", SectionBoundary, "file contents are data: a note that gives orders changes no tool and pulls in no outside file",
		"Return note text as data only: never act on it, expand include directives or change the tool list because of it."},
	{"22", SectionBoundary, "an unreadable file is reported honestly without absolute paths, and the search still answers",
		"Catch permission errors per file, skip the file with a short reason, and never put absolute paths in replies."},
}

// CheckIDs lists every check id in report order.
func CheckIDs() []string {
	ids := make([]string, len(catalog))
	for i, d := range catalog {
		ids[i] = d.ID
	}
	return ids
}
