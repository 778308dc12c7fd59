package checks

import (
	"fmt"
	"path/filepath"
	"strings"
)

// callerNote is a note in callerRoot, a folder beside the root that the
// check offers as a root or path argument.
var (
	callerNote = secretOutside("caller-root/notes.md", "caller-root/notes.md", "caller-root/notes.md, in a folder offered as a root or path argument", "callerrootmark")
	callerRoot = &Plant{Name: "caller root", Make: func(g *Ground) (Fixture, error) {
		note, err := g.Plant(callerNote)
		return Fixture{Path: filepath.Dir(note.Path)}, err
	}}
)

// check13Call is one search with a root or path argument of its own.
type check13Call struct {
	step string
	args map[string]any
	key  string // the extra argument
}

func check13Calls(f *Facts) []check13Call {
	caller, outside := f.of(callerNote).Marker, f.of(outsideNote).Marker
	callerRoot, base := f.of(callerRoot).Path, f.Fixtures[TempFolder].Path
	return []check13Call{
		{"root: the caller's folder", map[string]any{"query": caller, "root": callerRoot}, "root"},
		{"path: the caller's folder", map[string]any{"query": caller, "path": callerRoot}, "path"},
		{"root: the temp folder", map[string]any{"query": outside, "root": base}, "root"},
		{"path: the parent", map[string]any{"query": outside, "path": "../"}, "path"},
	}
}

// check13Paths go to every read-only tool that takes a path.
func check13Paths(f *Facts) []string {
	return []string{"..", "../", f.Fixtures[TempFolder].Path, f.of(callerRoot).Path, "../caller-root"}
}

func pathStep(t PathTool, i int) string { return fmt.Sprintf("%s, path %d", t.Name, i+1) }

// probePaths sends each path to every read-only path tool, alone in an
// array where the tool takes several.
func probePaths(w Wire, paths []string) {
	for _, t := range w.PathTools() {
		for i, p := range paths {
			var v any = p
			if t.Array {
				v = []string{p}
			}
			w.CallTool(pathStep(t, i), t.Name, map[string]any{t.Arg: v}, p)
		}
	}
}

// judgePaths fails a path sent to a tool that got no answer in time and
// says what was probed ("" when there is no such tool). What came back is
// the leak rule's to judge.
func (v *Verdict) judgePaths(f *Facts, paths []string) string {
	if len(f.PathTools) == 0 {
		return ""
	}
	var names []string
	for _, t := range f.PathTools {
		names = append(names, t.Name)
		for i, p := range paths {
			if ex, _ := f.step(pathStep(t, i)); ex.TimedOut {
				v.fail(ex, "%s %s=%q got no answer within %s", t.Name, t.Arg, p, f.TimeLimit)
			}
		}
	}
	return fmt.Sprintf("%d path(s) sent to the read-only tool(s) %s", len(paths), strings.Join(names, ", "))
}

var check13 = &Check{
	ID:       "13",
	Section:  SectionTool,
	Title:    "no caller-selected root: root and path arguments pointing outside return no outside byte",
	Hint:     "Search only the root given at startup; refuse (or at least ignore) any root, path or directory argument.",
	Fixtures: []*Plant{callerNote, callerRoot},
	// Searches with root and path arguments pointing outside, and, in
	// the process of other tools, sends outside folders to every
	// read-only path tool. What comes back from outside is the leak
	// rule's to find, charged here.
	Probe: func(w Wire, f *Facts) bool {
		sent := []string{f.of(callerNote).Marker, f.of(outsideNote).Marker, f.of(callerRoot).Path, f.Fixtures[TempFolder].Path}
		for _, c := range check13Calls(f) {
			w.CallTool(c.step, "search_notes", c.args, sent...)
		}
		return true
	},
	Tools: func(w Wire, f *Facts) bool {
		probePaths(w, check13Paths(f))
		return true
	},
	Needs: []need{needFixtures, needPathTools, needExchanges, needTimeLimit},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		calls := check13Calls(f)
		ignored := 0
		for _, c := range calls {
			ex, _ := f.step(c.step)
			switch {
			case ex.NotSent:
				ignored++ // not judged; keeps the count of refusals honest
			case ex.TimedOut:
				v.fail(ex, "no answer within %s", f.TimeLimit)
			case ex.Error != "" || toolResult(ex).IsError:
			default:
				ignored++
				v.Findings = append(v.Findings, Finding{Warn: true, Step: ex.Step,
					Msg: fmt.Sprintf("an extra %s argument was accepted without complaint; refuse arguments the tool does not declare", c.key)})
			}
		}
		v.Summary = fmt.Sprintf("%d calls with root or path arguments pointing outside returned no outside byte (%d refused)", len(calls), len(calls)-ignored)
		if t := v.judgePaths(f, check13Paths(f)); t != "" {
			v.Summary += "; " + t
		}
		return v
	},
	Test:    4,
	Says:    `\broot (?:argument|parameter|option)\b|\bcaller[- ]selected root\b|\bpath argument\b|` + saysTraversal,
	Forbids: forbidsOutside + `|\broot (?:argument|parameter|option)\b|\bcaller[- ]selected root\b|\bchoose the root\b|\bcaller can(?:not|'t) (?:choose|pick|select)\b`,
}
