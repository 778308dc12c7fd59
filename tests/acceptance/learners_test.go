package acceptance_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/harness"
)

// learner is one learner-style server the harness must grade right: a
// correct one (no fail, no warn listed) passes with 0 failed; a defective
// one fails exactly the checks in fail and warns exactly on those in
// warn, besides the warnings its family always gets (quirks).
type learner struct {
	name   string
	family string // a key of families
	args   string // appended to the family's command
	fail   []string
	warn   []string
	config func(*harness.Config)
	// homeFile must not appear in the grader's own home folder.
	homeFile string
}

// family is one server program and the warnings it gets even when
// correct, because its SDK behaves so (the official TypeScript SDK answers
// an unknown tool with isError and a bad line with nothing; the Go SDK
// ends the session on a line that is not JSON).
type family struct {
	// python, go, node or npx (the official TypeScript SDK's servers,
	// from the installed copy of testdata/node-server), or js (a
	// Node.js script under testdata with no dependencies)
	lang   string
	path   string // the script, or the folder for go run
	root   string // how the command names the root; empty: -root {root} for go, else --root {root}
	quirks []string
}

var families = map[string]family{
	"python":     {lang: "python", path: "learners/python/server.py"},
	"pyclass":    {lang: "python", path: "learners/pyclass/server.py"},
	"pyarray":    {lang: "python", path: "learners/pyarray/server.py", root: "{root}"},
	"pyquote":    {lang: "python", path: "learners/pyquote/server.py", root: "--notes-dir {root}"},
	"noderaw":    {lang: "js", path: "learners/noderaw/server.js", root: "--vault {root}"},
	"go":         {lang: "go", path: "learners/go", quirks: []string{"8.5"}},
	"gotyped":    {lang: "go", path: "learners/gotyped", quirks: []string{"8.5"}},
	"mcpgo":      {lang: "go", path: "learners/mcpgo"},
	"node":       {lang: "node", path: "server.mjs", quirks: []string{"8.4", "8.5", "13"}},
	"npx":        {lang: "npx", path: "server.mjs", quirks: []string{"8.4", "8.5", "13"}},
	"node-text":  {lang: "node", path: "text-server.mjs", quirks: []string{"8.4", "8.5"}},
	"node-typed": {lang: "node", path: "structured-server.mjs", quirks: []string{"8.4", "8.5"}},
}

// ids lists check ids, for the tables below.
func ids(list ...string) []string { return list }

var learners = []learner{
	// Correct servers in the styles instructors meet: text only, no
	// outputSchema, protocol 2024-11-05 only, slow calls, no annotations,
	// chatty stderr echoing the query, pretty-printed JSON text, one
	// content block per passage, JSON text and structuredContent of their
	// own shapes, `go run .` on the official Go SDK and on mcp-go, and npx.
	{name: "python text, 300 ms per call", family: "python", args: "--style text --delay 0.3"},
	{name: "python pretty-printed JSON text", family: "python", args: "--style pretty"},
	{name: "python one block per passage", family: "python", args: "--style blocks"},
	{name: "python class, JSON text and structuredContent", family: "pyclass"},
	{name: "go run, one block per passage", family: "go"},
	{name: "go run, isolation off", family: "go", config: func(c *harness.Config) { c.Isolation = "off" }},
	{name: "go run, typed output of its own shape", family: "gotyped"},
	{name: "go run on mcp-go, plain text", family: "mcpgo"},
	{name: "node chatty pretty-printed JSON", family: "node", args: "--chatty --style pretty"},
	{name: "node chatty one block per passage", family: "node", args: "--chatty --style blocks"},
	{name: "node registerTool and zod, plain text", family: "node-text"},
	{name: "node structuredContent of its own shape", family: "node-typed"},
	{name: "npx -c node", family: "npx", args: "--chatty"},
	// Modelled on public notes servers' replies: a top-level JSON array
	// naming notes with a leading slash, Markdown block quotes, one JSON
	// object per passage (also echoing the query in typographic quotes).
	{name: "python JSON array, root as an argument", family: "pyarray"},
	{name: "python Markdown block quotes", family: "pyquote"},
	{name: "node without SDK, one JSON block per passage", family: "noderaw"},
	{name: "node without SDK, echoes the query", family: "noderaw", args: "--echo"},

	// One defect each, caught by the checks whose rules it breaks. Where a
	// defect trips the server on a trap, its error message names the
	// note by absolute path, which check 22 warns about; a link followed
	// to a missing target breaks check 20's rule too.
	{name: "python case-sensitive", family: "python", args: "--defect case-sensitive", fail: ids("9"), warn: ids("10")},
	{name: "go case-sensitive", family: "go", args: "-defect case-sensitive", fail: ids("9"), warn: ids("10")},
	{name: "python regex", family: "python", args: "--defect regex", fail: ids("11")},
	// A regular expression's i flag folds case without Unicode's rules
	// (the Kelvin sign and ẞ stay apart from k and ß): check 10 warns.
	{name: "node regex", family: "node", args: "--defect regex", fail: ids("11"), warn: ids("10")},
	{name: "python empty query matches everything", family: "python", args: "--defect empty-matches-all", fail: ids("12")},
	{name: "python honours a root argument", family: "python", args: "--defect root-arg", fail: ids("13")},
	{name: "python offers a write tool", family: "python", args: "--defect write-tool", fail: ids("14")},
	{name: "node offers a write tool", family: "node", args: "--defect write-tool", fail: ids("14")},
	{name: "python readOnlyHint false", family: "python", args: "--defect readonly-false", warn: ids("14")},
	{name: "node readOnlyHint false", family: "node", args: "--defect readonly-false", warn: ids("14")},
	{name: "python random order", family: "python", args: "--defect nondeterministic", fail: ids("15")},
	{name: "go map order", family: "go", args: "-defect map-order", fail: ids("15")},
	{name: "python writes into HOME", family: "python", args: "--defect write-home", fail: ids("16"), homeFile: ".practice_notes_history"},
	{name: "go writes into HOME, isolation off", family: "go", args: "-defect write-home", fail: ids("16"), homeFile: ".go-notes-history",
		config: func(c *harness.Config) { c.Isolation = "off" }},
	{name: "python writes into TMPDIR", family: "python", args: "--defect write-tmp", fail: ids("16")},
	{name: "python startswith without separator", family: "python", args: "--defect startswith-root", fail: ids("17", "20"), warn: ids("22")},
	{name: "go HasPrefix without separator", family: "go", args: "-defect startswith-root", fail: ids("17")},
	{name: "python walks into linked directories", family: "python", args: "--defect linked-dir", fail: ids("17", "18")},
	{name: "python resolves links one level", family: "python", args: "--defect one-level-links", fail: ids("18", "20"), warn: ids("22")},
	{name: "python reads hard links", family: "python", args: "--defect hardlink", warn: ids("19")},
	{name: "python hangs on a FIFO", family: "python", args: "--defect fifo", fail: ids("20", "22")},
	{name: "python opens a directory named x.md", family: "python", args: "--defect dir-md", fail: ids("20", "22"), warn: ids("19")},
	{name: "python trips on a dangling link", family: "python", args: "--defect dangling", fail: ids("20"), warn: ids("22")},
	{name: "python trips on a binary file", family: "python", args: "--defect binary", fail: ids("20")},
	{name: "python expands include directives", family: "python", args: "--defect include", fail: ids("21")},
	{name: "python sloppy protocol", family: "python", args: "--defect protocol-sloppy", warn: ids("8.3", "8.4", "8.5", "8.7")},

	// Check 1 takes the whole paragraph, byte for byte, and its note ID.
	{name: "node text, first line only", family: "node-text", args: "--defect first-line", fail: ids("1")},
	{name: "node text, first words and ...", family: "node-text", args: "--defect ellipsis", fail: ids("1")},
	{name: "node text, lower-cased passage", family: "node-text", args: "--defect lowercase", fail: ids("1")},
	{name: "node text, no note ID", family: "node-text", args: "--defect no-note-id", fail: ids("1")},
	{name: "node typed, snippet cut with …", family: "node-typed", args: "--defect snippet", fail: ids("1")},
	{name: "node typed, the whole file", family: "node-typed", args: "--defect whole-file", fail: ids("1")},
	{name: "python class, the whole file", family: "pyclass", args: "--defect whole-file", fail: ids("1")},
	{name: "python class, first words and ...", family: "pyclass", args: "--defect ellipsis", fail: ids("1")},
	{name: "go typed, first line only", family: "gotyped", args: "-defect first-line", fail: ids("1")},
	{name: "go typed, lower-cased passage", family: "gotyped", args: "-defect lowercase", fail: ids("1")},
	// Check 2 wants a statement that nothing matched.
	{name: "node text, only \"files were not searched\"", family: "node-text", args: "--defect not-searched-message", fail: ids("2")},
	{name: "python class, only \"files were not searched\"", family: "pyclass", args: "--defect not-searched-message", fail: ids("2")},
	// Check 3: nested notes.
	{name: "mcp-go, root folder only", family: "mcpgo", args: "-defect not-recursive", fail: ids("3")},
	// Paths through a second read-only tool, links named as results,
	// outside text and outside paths.
	{name: "node text, read_note(path) follows links and ../", family: "node-text", args: "--defect read-note-tool", fail: ids("4", "5", "17", "18"), warn: ids("14", "19")},
	{name: "python class, read_note(path) follows links and ../", family: "pyclass", args: "--defect read-note-tool", fail: ids("4", "5", "17", "18"), warn: ids("14", "19")},
	{name: "node typed, list_notes(dir) lists the folder above", family: "node-typed", args: "--defect list-notes-tool", fail: ids("4", "13"), warn: ids("14", "22")},
	{name: "node typed, link names as matches", family: "node-typed", args: "--defect filename-match", fail: ids("5", "17", "18")},
	{name: "node typed, absolute link targets in notes", family: "node-typed", args: "--defect abs-link-paths", fail: ids("5", "17", "18"), warn: ids("22")},
	{name: "mcp-go, follows links", family: "mcpgo", args: "-defect outside-text", fail: ids("5", "17", "18")},
	{name: "go typed, follows links", family: "gotyped", args: "-defect follows-links", fail: ids("5", "17", "18")},
	{name: "python class, absolute paths of notes", family: "pyclass", args: "--defect abs-paths", warn: ids("22")},
	// Limits: bytes, not characters; ten in all, not per file.
	{name: "node text, file limit in characters", family: "node-text", args: "--defect char-limit", fail: ids("6")},
	{name: "python class, file limit in characters", family: "pyclass", args: "--defect char-limit", fail: ids("6")},
	{name: "node typed, ten per file", family: "node-typed", args: "--defect per-file-limit", fail: ids("6")},
	{name: "node typed, truncated: false when cut", family: "node-typed", args: "--defect truncated-false", fail: ids("6")},
	{name: "go typed, no result limit", family: "gotyped", args: "-defect no-result-limit", fail: ids("6")},
	// Checks 9-12.
	{name: "mcp-go, ASCII-only case folding", family: "mcpgo", args: "-defect ascii-fold", warn: ids("10")},
	{name: "node text, * lists every note", family: "node-text", args: "--defect star-lists-all", fail: ids("11")},
	{name: "python class, * lists every note", family: "pyclass", args: "--defect star-lists-all", fail: ids("11")},
	{name: "mcp-go, empty query lists every note", family: "mcpgo", args: "-defect empty-lists-all", fail: ids("12")},
	// Protocol basics.
	{name: "python class, string ids answered with a number", family: "pyclass", args: "--defect numeric-ids", warn: ids("8.2")},
	{name: "python class, one protocol revision for all", family: "pyclass", args: "--defect fixed-version", warn: ids("8.6")},
	{name: "python class, no ping", family: "pyclass", args: "--defect no-ping", warn: ids("8.1")},
}

// cmpEmpty treats a nil and an empty list alike.
var cmpEmpty = cmp.Transformer("empty", func(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
})

// TestCatalogHasProof holds every check to proof both ways: at least one
// server in the tables above breaks its rule (the runs assert that the
// check then fails or warns), and at least one correct server exists
// (the runs assert that it passes every check).
func TestCatalogHasProof(t *testing.T) {
	caught := map[string][]string{}
	correct := 0
	for _, l := range learners {
		if len(l.fail)+len(l.warn) == 0 {
			correct++
		}
		for _, id := range append(append([]string(nil), l.fail...), l.warn...) {
			caught[id] = append(caught[id], l.name)
		}
	}
	for _, fs := range fixtureServers {
		if len(fs.wantFailed) == 0 {
			correct++
		}
		for _, id := range fs.wantFailed {
			caught[id] = append(caught[id], fs.server)
		}
	}
	if correct == 0 {
		t.Error("no correct server in the tables")
	}
	for _, id := range harness.CheckIDs() {
		if len(caught[id]) == 0 {
			t.Errorf("check %s: no server in the tables breaks its rule, so nothing shows it can fail", id)
		}
	}
}
