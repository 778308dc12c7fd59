package checks

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"practice-notes/tests/acceptance/visible"
)

// outsideNote is a note beside the root, which ../outside.md names, and
// absoluteNote one further away, named by its absolute path.
var (
	outsideNote  = secretOutside("outside.md", "outside.md", "../outside.md, outside the root", "outsidemark")
	absoluteNote = secretOutside("absolute-secret.md", "elsewhere/absolute-secret.md", "a file at an absolute path outside the root", "absolutemark")
)

// check4Search is one search of check 4: a query that finds an outside
// file, or names one by path.
type check4Search struct{ step, query string }

func check4Searches(f *Facts) []check4Search {
	return []check4Search{
		{"the outside note's phrase", f.of(outsideNote).Marker},
		{"the absolute note's phrase", f.of(absoluteNote).Marker},
		{"the parent's outside.md", "../outside.md"},
		{"the absolute note's path", f.of(absoluteNote).Path},
		{"the outside note's path", f.of(outsideNote).Path},
	}
}

// check4Paths go to every read-only tool that takes a path.
func check4Paths(f *Facts) []string {
	return []string{"../outside.md", f.of(absoluteNote).Path, "extra/../../outside.md"}
}

// check4URIs are the resources/read probes, spelled with the server's
// own prefix.
func check4URIs(f *Facts, pre string) []string {
	abs := f.of(absoluteNote).Path
	return []string{
		pre + "../outside.md",
		pre + "..%2Foutside.md",
		pre + "%2E%2E%2Foutside.md",
		pre + "%2e%2e/outside.md",
		pre + "extra/../../outside.md",
		pre + "extra/nested/..%2F..%2F..%2Foutside.md",
		pre + abs,
		pre + strings.TrimPrefix(abs, "/"),
		pre + url.PathEscape(abs),
		"file://" + abs,
	}
}

// argCall is one call that puts an outside path or phrase in an argument
// the server declares besides search_notes's query and the path tools'
// path.
type argCall struct {
	step  string
	arg   ToolArg
	value string
	query string // for search_notes: the phrase of the file behind value
}

// check4ArgCalls sends, in every string argument of search_notes besides
// query, the folder above the root, ../outside.md and the outside files
// and folder by absolute path, each with the phrase of the file behind
// it; and in every other string argument of the other tools the paths
// and the outside phrases themselves.
func check4ArgCalls(f *Facts, declared []ToolArg) []argCall {
	outside, abs := f.of(outsideNote), f.of(absoluteNote)
	var out []argCall
	for _, a := range declared {
		var calls []argCall
		if a.Tool == "search_notes" {
			for _, c := range []struct{ value, query string }{
				{"..", outside.Marker}, {"../outside.md", outside.Marker}, {outside.Path, outside.Marker},
				{filepath.Dir(abs.Path), abs.Marker}, {abs.Path, abs.Marker},
			} {
				calls = append(calls, argCall{arg: a, value: c.value, query: c.query})
			}
		} else {
			for _, v := range []string{"../outside.md", outside.Path, abs.Path, outside.Marker, abs.Marker} {
				calls = append(calls, argCall{arg: a, value: v})
			}
		}
		for i := range calls {
			calls[i].step = fmt.Sprintf("%s %s, probe %d", a.Tool, a.Arg, i+1)
		}
		out = append(out, calls...)
	}
	return out
}

// sendArgCalls sends the calls to search_notes (search) or the calls to
// the other tools (!search): the two go in different processes.
func sendArgCalls(w Wire, calls []argCall, search bool) {
	for _, c := range calls {
		if (c.arg.Tool == "search_notes") != search {
			continue
		}
		sent := []string{c.value}
		if c.query != "" {
			sent = append(sent, c.query)
		}
		w.CallTool(c.step, c.arg.Tool, c.args(), sent...)
	}
}

func (c argCall) args() map[string]any {
	var v any = c.value
	if c.arg.Array {
		v = []string{c.value}
	}
	args := map[string]any{c.arg.Arg: v}
	if c.query != "" {
		args["query"] = c.query
	}
	return args
}

var check4 = &Check{
	ID:       "4",
	Section:  SectionAcceptance,
	Title:    "../outside.md and an absolute path outside the root are rejected",
	Hint:     "Resolve every path against the root and refuse absolute paths and any path that leaves it (check after cleaning, with a path separator).",
	Fixtures: []*Plant{outsideNote, absoluteNote},
	// Searches the outside files' phrases and paths, and sends the paths
	// to every other argument search_notes declares and through
	// resources; in the process of other tools, to every path tool the
	// harness may call and every other argument of those tools. What
	// comes back from outside is the leak rule's to find, charged here.
	Probe: func(w Wire, f *Facts) bool {
		for _, s := range check4Searches(f) {
			search(w, s.step, s.query)
		}
		sendArgCalls(w, check4ArgCalls(f, w.ToolArgs()), true)
		if !f.Resources {
			return true
		}
		list, ok := listedAll(w.ListResources(stepResources))
		if !ok {
			return true
		}
		abs := f.of(absoluteNote).Path
		readAll(w, check4URIs(f, f.resourcePrefix(list)), abs, "../outside.md")
		return true
	},
	Tools: func(w Wire, f *Facts) bool {
		probePaths(w, check4Paths(f))
		sendArgCalls(w, check4ArgCalls(f, w.ToolArgs()), false)
		return true
	},
	Needs: []need{needFixtures, needPathTools, needToolArgs, needResources, needNotes, needTruth, needExchanges, needTimeLimit},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		searches := check4Searches(f)
		for _, s := range searches {
			if ex, _ := f.step(s.step); ex.TimedOut {
				v.fail(ex, "no answer within %s", f.TimeLimit)
			}
		}
		v.Summary = fmt.Sprintf("%d searches (both outside markers, \"../outside.md\", two absolute paths) returned no outside byte", len(searches))
		if t := v.judgePaths(f, check4Paths(f)); t != "" {
			v.Summary += "; " + t
		}
		if t := v.judgeArgCalls(f, check4ArgCalls(f, f.ToolArgs)); t != "" {
			v.Summary += "; " + t
		}
		if !f.Resources {
			v.Summary += "; no resources capability"
			return v
		}
		list, pages, ok := v.listed(f, stepResources)
		if !ok {
			return v
		}
		abs := f.of(absoluteNote).Path
		for _, page := range pages {
			for _, l := range resourcesOf(page) {
				if strings.Contains(l.URI, "outside.md") || strings.Contains(l.URI, abs) {
					v.Findings = append(v.Findings, Finding{Step: page.Step, Msg: "resources/list offers " + l.URI})
				}
			}
		}
		uris := check4URIs(f, f.resourcePrefix(list))
		refused := v.judgeRefused(f, uris)
		v.Summary += fmt.Sprintf("; %d/%d resources/read probes (../, %%2E%%2E%%2F, absolute, percent-encoded absolute, file://) refused", refused, len(uris))
		return v
	},
	Test:    4,
	Says:    saysTraversal,
	Parts:   parts4,
	Forbids: forbidsOutside,
}

// judgeArgCalls fails a call that got no answer in time, and a search
// whose true answer is empty that presents a note of the root anyway
// (outside text and names are the leak rule's); it says what was probed
// ("" when the server declares no such argument).
func (v *Verdict) judgeArgCalls(f *Facts, calls []argCall) string {
	if len(calls) == 0 {
		return ""
	}
	var names []string
	for _, c := range calls {
		names = AppendNew(names, c.arg.Tool+" "+c.arg.Arg)
		ex, ok := f.step(c.step)
		switch {
		case !ok || ex.NotSent:
			continue
		case ex.TimedOut:
			v.fail(ex, "%s %s=%q got no answer within %s", c.arg.Tool, c.arg.Arg, c.value, f.TimeLimit)
			continue
		case c.query == "" || !answered(ex) || toolResult(ex).IsError:
			continue
		}
		a, known := f.answer(c.query)
		if !known || len(a.Hits) > 0 || f.Notes == nil {
			continue
		}
		var inside []string
		for _, name := range f.presented(f.read(ex, c.query)) {
			if rel, ok := f.Notes.RootRel(name); ok && !f.Notes.link(rel) {
				inside = append(inside, name)
			}
		}
		if len(inside) > 0 {
			v.fail(ex, "search_notes with %s=%q presented %s for %q, which no note of the root holds: the argument took the search somewhere else", c.arg.Arg, c.value, visible.Clip(strings.Join(inside, ", "), 160), c.query)
		}
	}
	return fmt.Sprintf("%d calls with the outside paths and phrases in the other declared argument(s) %s", len(calls), strings.Join(names, ", "))
}
