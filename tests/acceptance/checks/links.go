package checks

import (
	"fmt"
	"path"
	"strings"
)

// Checks 17, 18 and 19 plant links that lead outside the root. Each
// searches the public words of the files behind its links and the links'
// names, sends the links' folders in every string argument search_notes
// declares besides query, reads the paths through resources, and, in the
// process of other tools, sends the paths to every tool besides
// search_notes that takes one. What comes back from outside, and a link
// named as a result, are the leak rule's to find, charged to the owner of
// the fixture; the judge fails a request that got no answer in time and
// says what was probed.

// linkProbe is what one of those checks sends.
type linkProbe struct {
	secrets []*Plant // fixtures whose public words are searched
	names   []string // the links' names, searched too
	paths   []string // root-relative paths through the links
	// folders gives what search_notes's own arguments are set to.
	folders func(*Facts) []string
	// planted says what the check planted, for the summary.
	planted func(*Facts) string
}

func linkSearchStep(i int) string { return fmt.Sprintf("search %d", i+1) }

func linkArgStep(arg string, folder, query int) string {
	return fmt.Sprintf("search_notes %s, folder %d, query %d", arg, folder+1, query+1)
}

// queries are the public words of the secrets, then the links' names.
func (p linkProbe) queries(f *Facts) []string {
	var qs []string
	for _, s := range p.secrets {
		qs = append(qs, f.of(s).Marker)
	}
	return append(qs, p.names...)
}

func (p linkProbe) markers(f *Facts) []string {
	return p.queries(f)[:len(p.secrets)]
}

// searchArgs names the string arguments search_notes declares besides
// query.
func searchArgs(args []ToolArg) []string {
	var out []string
	for _, a := range args {
		if a.Tool == "search_notes" {
			out = append(out, a.Arg)
		}
	}
	return out
}

// probe sends the searches, search_notes's own arguments and the
// resources reads, all in the process of the search checks.
func (p linkProbe) probe(w Wire, f *Facts) bool {
	for i, q := range p.queries(f) {
		search(w, linkSearchStep(i), q)
	}
	if folders, qs := p.folders(f), p.markers(f); len(folders) > 0 && len(qs) > 0 {
		for _, arg := range searchArgs(w.ToolArgs()) {
			for i, dir := range folders {
				for j, q := range qs {
					w.CallTool(linkArgStep(arg, i, j), "search_notes", map[string]any{"query": q, arg: dir}, dir, q)
				}
			}
		}
	}
	if !f.Resources || len(p.paths) == 0 {
		return true
	}
	list, ok := listedAll(w.ListResources(stepResources))
	if !ok {
		return true
	}
	pre := f.resourcePrefix(list)
	var uris []string
	for _, q := range p.paths {
		uris = append(uris, pre+q)
	}
	readAll(w, uris)
	return true
}

// tools sends the paths to every tool besides search_notes that takes
// one, in the process of other tools.
func (p linkProbe) tools(w Wire, _ *Facts) bool {
	probePaths(w, p.paths)
	return true
}

func (p linkProbe) judge(f *Facts) Verdict {
	var v Verdict
	qs := p.queries(f)
	for i := range qs {
		if ex, _ := f.step(linkSearchStep(i)); ex.TimedOut {
			v.fail(ex, "no answer within %s", f.TimeLimit)
		}
	}
	v.Summary = fmt.Sprintf("%d searches (the public words of the files behind the links, and the links' names) returned no outside byte and no link as a result", len(qs))
	if t := v.judgePaths(f, p.paths); t != "" {
		v.Summary += "; " + t
	}
	if folders, markers := p.folders(f), p.markers(f); len(folders) > 0 && len(markers) > 0 {
		if args := searchArgs(f.ToolArgs); len(args) > 0 {
			n := 0
			for _, arg := range args {
				for i, dir := range folders {
					for j := range markers {
						n++
						if ex, _ := f.step(linkArgStep(arg, i, j)); ex.TimedOut {
							v.fail(ex, "search_notes %s=%q got no answer within %s", arg, dir, f.TimeLimit)
						}
					}
				}
			}
			v.Summary += fmt.Sprintf("; %d searches with search_notes's own argument(s) %s set to %s", n, strings.Join(args, ", "), strings.Join(folders, ", "))
		}
	}
	v.Summary += v.judgeLinkResources(f, p.paths)
	v.Summary += "; " + p.planted(f)
	return v
}

// judgeLinkResources fails a resources/list that offers a path through
// a link and a read of one that was not refused, and says how many reads
// were refused ("" when nothing was read).
func (v *Verdict) judgeLinkResources(f *Facts, paths []string) string {
	if !f.Resources || len(paths) == 0 {
		return ""
	}
	list, pages, ok := v.listed(f, stepResources)
	if !ok {
		return ""
	}
	for _, page := range pages {
		for _, l := range resourcesOf(page) {
			for _, p := range paths {
				if strings.HasSuffix(l.URI, p) || strings.Contains(l.URI, "linked-dir/") && strings.HasPrefix(p, "linked-dir") {
					v.Findings = append(v.Findings, Finding{Step: page.Step, Msg: "resources/list offers " + l.URI})
				}
			}
		}
	}
	pre := f.resourcePrefix(list)
	var uris []string
	for _, p := range paths {
		uris = append(uris, pre+p)
	}
	return fmt.Sprintf("; %d/%d resources/read probes refused", v.judgeRefused(f, uris), len(uris))
}

// siblingDir is the folder beside the root whose name starts with the
// root's, which holds check 17's private note.
func siblingDir(f *Facts) string { return path.Dir(f.of(siblingNote).Path) }
