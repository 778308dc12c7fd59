package checks

import (
	"strings"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The harness calls a tool besides search_notes only when nothing says
// it may change something: a graded server's tool that writes would
// change the fixture the harness judges, and the grader's machine with
// it. docs/grading.md ("One tool", check 14) states the same rule and
// lists the same words.
//
//  1. Words first, whatever the annotations: a tool whose name or
//     description holds one of changeWords or doubtWords, in any of its
//     usual forms, is never called. An annotation does not outvote a
//     tool's own words.
//  2. Then the annotations (MCP ToolAnnotations): a tool annotated
//     destructiveHint: true, or annotated without readOnlyHint: true, is
//     never called. MCP's defaults are readOnlyHint false and
//     destructiveHint true, so an annotation that leaves them out says
//     the tool may change things.
//  3. A tool annotated readOnlyHint: true and destructiveHint: false,
//     whose words say nothing of changing, is called; so is a tool
//     without annotations whose words say nothing of changing, and one
//     annotated readOnlyHint: true alone.
//
// Check 14 lists every tool the harness does not call: it fails one
// whose name holds one of changeWords or that is annotated
// destructiveHint: true, and warns about the others.

// changeWords are the verbs, and the names of programs that act, that
// say a tool changes, moves, sends or runs something. A word matches in
// its forms: camelCase, PascalCase, snake_case, kebab-case and dotted
// names are split into words; plurals and third persons (-s, -es, -ies),
// -ing, -ed, -er, -or, -ion and doubled final consonants are taken back
// to the stem; British -ise is read as -ize.
var changeWords = wordSet(
	// write and change
	"add", "amend", "append", "apply", "archive", "assign", "attach", "change", "commit",
	"convert", "create", "detach", "duplicate", "edit", "fix", "insert", "mark", "merge",
	"modify", "normalize", "overwrite", "patch", "persist", "prepend", "put", "rebuild", "redo",
	"refactor", "reindex", "rename", "reorder", "replace", "reset", "restore", "retag", "revert",
	"rewrite", "rollback", "save", "set", "split", "standardize", "store", "switch", "sync",
	"toggle", "touch", "transform", "truncate", "undo", "unlink", "untag", "update", "upsert",
	"write",
	// delete
	"cleanup", "del", "delete", "destroy", "drop", "erase", "prune", "purge", "remove", "rm",
	"rmdir", "trash", "wipe",
	// move, copy, send
	"cp", "copy", "download", "dump", "export", "import", "mkdir", "move", "mv", "post",
	"publish", "pull", "push", "send", "upload",
	// run
	"bash", "deploy", "eval", "exec", "execute", "install", "invoke", "kill", "launch",
	"restart", "run", "sh", "shell", "spawn", "terminate", "uninstall",
	// permissions
	"chmod", "chown", "unlock",
)

// doubtWords say a tool may change something, or may not: "links",
// "tags", "sorted", "a set of", "the start of". A tool whose words hold
// one is not called either, but check 14 only warns about it.
var doubtWords = wordSet(
	"call", "clean", "clear", "cmd", "command", "format", "label", "link", "lock", "new", "pin",
	"script", "share", "sort", "star", "start", "stop", "tag",
)

func wordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// MayCall reports whether the harness may call a tool the server
// declares: see the rule above.
func MayCall(t *mcp.Tool) bool {
	if w := changeWord(t.Name, t.Description); w != "" {
		return false
	}
	a := t.Annotations
	if a == nil {
		return true
	}
	if a.DestructiveHint != nil && *a.DestructiveHint {
		return false
	}
	return a.ReadOnlyHint
}

// changeWord returns the first word of texts, in the form it is written,
// that is one of changeWords or doubtWords, or "".
func changeWord(texts ...string) string {
	for _, text := range texts {
		for _, w := range splitWords(text) {
			if inWords(strings.ToLower(w), changeWords) || inWords(strings.ToLower(w), doubtWords) {
				return w
			}
		}
	}
	return ""
}

// nameSaysChange returns the first word of a tool's name that is one of
// changeWords, or "": check 14 fails such a tool.
func nameSaysChange(name string) string {
	for _, w := range splitWords(name) {
		if inWords(strings.ToLower(w), changeWords) {
			return w
		}
	}
	return ""
}

// splitWords splits text into words at every character that is not a
// letter and at every lower-to-upper case change (writeFile, WriteFile,
// HTMLExport).
func splitWords(text string) []string {
	var words []string
	rs := []rune(text)
	start := -1
	for i, r := range rs {
		if !unicode.IsLetter(r) {
			if start >= 0 {
				words = append(words, string(rs[start:i]))
				start = -1
			}
			continue
		}
		if start >= 0 && unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) ||
			(i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))) {
			words = append(words, string(rs[start:i]))
			start = i
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		words = append(words, string(rs[start:]))
	}
	return words
}

// inWords reports whether a lower-case word is one of set in one of its
// forms.
func inWords(w string, set map[string]bool) bool {
	for _, s := range stems(strings.ReplaceAll(w, "ise", "ize")) {
		if set[s] {
			return true
		}
	}
	return false
}

// stems lists what a word may be a form of: itself, and itself without
// each ending that makes a plural, a third person, a participle, a doer
// or an act, with and without a final e, and undoubled.
func stems(w string) []string {
	out := []string{w}
	for _, end := range []struct{ suffix, repl string }{
		{"ies", "y"}, {"ied", "y"}, {"es", ""}, {"s", ""}, {"ing", ""}, {"ed", ""},
		{"er", ""}, {"ers", ""}, {"or", ""}, {"ors", ""}, {"ion", ""}, {"ions", ""}, {"sion", "t"},
	} {
		base, ok := strings.CutSuffix(w, end.suffix)
		if !ok || len(base) < 2 {
			continue
		}
		base += end.repl
		out = append(out, base, base+"e")
		if n := len(base); n >= 3 && base[n-1] == base[n-2] {
			out = append(out, base[:n-1])
		}
	}
	return out
}
