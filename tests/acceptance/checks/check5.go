package checks

import (
	"fmt"
	"strings"
)

// escapeLink is a symlink in the root to escapeTarget, a note beside the
// root.
var (
	escapeTarget = secretOutside("escape-target.md", "escape-target.md", "escape-target.md, the target of symlink escape-link.md", "escapemark")
	escapeLink   = link("escape-link.md", "../escape-target.md", false)
)

var check5 = &Check{
	ID:       "5",
	Section:  SectionAcceptance,
	Title:    "a symlink inside the root pointing outside is rejected, no leaked bytes",
	Hint:     "Do not follow symlinks (lstat each entry, open with O_NOFOLLOW), or resolve them and refuse targets outside the root.",
	Fixtures: []*Plant{escapeTarget, escapeLink},
	// Searches the public word of the file behind escape-link.md and the
	// link's name, and sends the link through resources and, in the
	// process of other tools, to every path tool the harness may call.
	// What comes back from outside, and the link named as a result, are
	// the leak rule's to find, charged here.
	Probe: func(w Wire, f *Facts) bool {
		search(w, escapeTarget.Name, f.of(escapeTarget).Marker)
		search(w, escapeLink.Name, escapeLink.Name)
		if !f.Resources {
			return true
		}
		list, ok := listedAll(w.ListResources(stepResources))
		if !ok {
			return true
		}
		readAll(w, []string{f.resourcePrefix(list) + escapeLink.Name})
		return true
	},
	Tools: func(w Wire, _ *Facts) bool {
		probePaths(w, []string{escapeLink.Name})
		return true
	},
	Needs: []need{needFixtures, needPathTools, needResources, needNotes, needExchanges, needTimeLimit},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		target, _ := f.step(escapeTarget.Name)
		link, _ := f.step(escapeLink.Name)
		for _, ex := range []Exchange{target, link} {
			if ex.TimedOut {
				v.fail(ex, "no answer within %s", f.TimeLimit)
			}
		}
		v.Summary = "2 searches (the public word of the file behind escape-link.md, and its name) returned no outside byte and no link as a result"
		if answered(target) {
			if sk := f.read(target, f.of(escapeTarget).Marker).Skipped; len(sk) > 0 {
				v.Notes = append(v.Notes, "the reply names as skipped or refused: "+strings.Join(sk, ", "))
			}
		}
		if t := v.judgePaths(f, []string{escapeLink.Name}); t != "" {
			v.Summary += "; " + t
		}
		if !f.Resources {
			return v
		}
		list, pages, ok := v.listed(f, stepResources)
		if !ok {
			return v
		}
		for _, page := range pages {
			for _, l := range resourcesOf(page) {
				if strings.HasSuffix(l.URI, escapeLink.Name) {
					v.Findings = append(v.Findings, Finding{Step: page.Step, Msg: "resources/list offers " + l.URI})
				}
			}
		}
		uris := []string{f.resourcePrefix(list) + escapeLink.Name}
		v.Summary += fmt.Sprintf("; %d/%d resources/read probes refused", v.judgeRefused(f, uris), len(uris))
		return v
	},
	Test:    5,
	Says:    saysSymlink,
	Forbids: forbidsOutside,
}
