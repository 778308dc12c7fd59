package harness

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"practice-notes/tests/acceptance/checks"
)

// A leak is something from outside the root, or a file the root holds
// only through a link, that a reply, stdout or stderr showed: a fragment
// of an outside file's text, an absolute path of the run's temp folder
// that the request did not contain, or a link named as a result. Each
// leak is charged once, to the check whose rule it breaks (its owner);
// every other check that saw it says "see check N". Passages that are not
// in the file they are credited to are judged here too, run-wide: an
// altered one breaks check 1's rule, an invented one check 2's.
type leak struct {
	owner  string
	key    string // one finding per key
	what   string
	where  string // "the reply to tools/call", "stderr of the process of check 4"
	during string // the check whose request drew it; "" for process output
	ex     *Exchange
	line   string
	warn   bool
	hint   string
}

// leakHints say what to fix for a leak, by the rule it breaks.
var leakHints = map[string]string{
	"1":  "Return each passage byte-for-byte as it is in the file: no cutting, ellipses, re-casing or reflowing.",
	"2":  "Quote only text that is in the file the passage is credited to; never compose or summarise one.",
	"22": "Never put absolute paths in replies; name files relative to the practice root.",
}

// tokenWindow is how many characters of a secret word prove a leak: the
// words are random hex, so seven characters come from nowhere else.
const tokenWindow = 7

// contentLeaks finds fragments of the secret files' words in text.
func (l *layout) contentLeaks(text string) []leak {
	var out []leak
	for _, s := range l.secrets {
		if frag, ok := holdsToken(text, s.Tokens); ok {
			line, _ := lineWith(text, frag)
			out = append(out, leak{owner: s.Owner, key: "text of " + s.Name, what: "text of " + s.Label, line: line, warn: s.Warn})
		}
	}
	return out
}

func holdsToken(text string, tokens []string) (string, bool) {
	for _, t := range tokens {
		for i := 0; i+tokenWindow <= len(t); i++ {
			if strings.Contains(text, t[i:i+tokenWindow]) {
				return t[i : i+tokenWindow], true
			}
		}
	}
	return "", false
}

// pathLeaks finds absolute paths of the run's temp folder that no sent
// string contains. A path outside the root fails its owner's check; with
// rootToo, one inside the root (the server's own root) warns under check
// 22: it reveals where the folder lives, which no reply needs.
func (l *layout) pathLeaks(text string, sent []string, rootToo bool) []leak {
	var out []leak
	seen := map[string]bool{}
	for _, base := range uniq(l.Base, l.BaseReal) {
		for i := 0; ; {
			j := strings.Index(text[i:], base)
			if j < 0 {
				break
			}
			start := i + j
			end := start + len(base)
			for end < len(text) && !strings.ContainsRune(" \t\r\n\"'`,;()[]<>{}\x00\\", rune(text[end])) {
				end++
			}
			i = end
			p := strings.TrimRight(text[start:end], ".:")
			rest := p[len(base):]
			inRoot := rest == "/root" || strings.HasPrefix(rest, "/root/") && !strings.Contains(rest, "/..")
			if seen[p] || sentContains(sent, p) || inRoot && !rootToo {
				continue
			}
			seen[p] = true
			if inRoot {
				line, _ := lineWith(text, p)
				out = append(out, leak{owner: "22", key: "root path", what: "the root's absolute path (" + p + ")", line: line, warn: true,
					hint: "Name notes relative to the practice root; an absolute path tells the client where the user's files live."})
				continue
			}
			owner, what := l.pathOwner(base, rest)
			line, _ := lineWith(text, p)
			out = append(out, leak{owner: owner, key: "path " + what, what: "the absolute path of " + what, line: line, hint: leakHints["22"]})
		}
	}
	return out
}

// pathOwner says whose rule revealing an outside path breaks: the check
// of the link or argument that points there, else check 22's.
func (l *layout) pathOwner(base, rest string) (owner, what string) {
	under := func(p string) bool {
		r := strings.TrimPrefix(p, l.Base)
		return rest == r || strings.HasPrefix(rest, r+"/")
	}
	switch {
	case under(l.LinkedDir):
		return "18", "the outside folder behind linked-dir"
	case under(l.SiblingDir):
		return "17", "the sibling folder root-old"
	case under(l.CallerRoot):
		return "13", "the folder offered as a caller-selected root"
	}
	for _, s := range l.secrets {
		if under(s.Path) {
			return s.Owner, s.Label
		}
	}
	if under(filepath.Dir(l.AbsOutside)) {
		return "4", "the outside folder of " + filepath.Base(l.AbsOutside)
	}
	return "22", "the run's temp folder (" + base + rest + ")"
}

func sentContains(sent []string, p string) bool {
	for _, s := range sent {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// resultLeaks judges the files a search reply names as results and the
// passages it credits to them.
func (r *runner) resultLeaks(ex *Exchange, rd *reading) []leak {
	l := r.lay
	var out []leak
	for _, f := range rd.Results {
		rel, ok := l.rootRel(f)
		if !ok {
			out = append(out, leak{owner: "4", key: "result outside " + f, what: fmt.Sprintf("a result naming %q, outside the root", f)})
			continue
		}
		if ln, isLink := l.linkFor(rel); isLink {
			kind := "symlink"
			if ln.Owner == "19" {
				kind = "hard link"
			}
			out = append(out, leak{owner: ln.Owner, key: "link " + ln.Rel, what: fmt.Sprintf("the %s %s named as a result (%q)", kind, ln.Rel, f), warn: ln.Warn})
			continue
		}
		if trap, owner := l.trapFor(rel); trap != "" {
			out = append(out, leak{owner: owner, key: "trap " + rel, what: fmt.Sprintf("%s (%s) named as a result", rel, trap)})
		}
	}
	for _, it := range rd.Items {
		if len(it.Passage) < 12 {
			continue
		}
		rel, ok := l.rootRel(it.File)
		if !ok {
			continue
		}
		if _, isLink := l.linkFor(rel); isLink {
			continue
		}
		content, err := l.rootFile(rel)
		if err != nil {
			continue
		}
		p := strings.TrimRight(it.Passage, "\r\n")
		cut := strings.Trim(p, "…. \t")
		switch {
		case strings.Contains(content, p) || strings.Contains(strings.ReplaceAll(content, "\r\n", "\n"), p):
		case it.Clipped && strings.Contains(content, cut):
		case strings.Contains(content, cut) || strings.Contains(strings.ToLower(content), strings.ToLower(cut)) ||
			strings.Contains(strings.ToLower(strings.ReplaceAll(content, "\r\n", "\n")), strings.ToLower(cut)) ||
			// reflowed: white space (a U+2028, a line break) rewritten
			strings.Contains(strings.ToLower(strings.Join(strings.Fields(content), " ")), strings.ToLower(strings.Join(strings.Fields(cut), " "))):
			out = append(out, leak{owner: "1", key: "altered passage", what: fmt.Sprintf("a passage credited to %s that is not byte-for-byte in it (cut, re-cased or padded): %q", rel, clip(it.Passage, 100)), hint: leakHints["1"]})
		case ex.Check != "2":
			out = append(out, leak{owner: "2", key: "invented passage", what: fmt.Sprintf("a passage credited to %s that is not in it (invented): %q", rel, clip(it.Passage, 100)), hint: leakHints["2"]})
		}
	}
	return out
}

// trapFor names the trap a path is, and the check it belongs to.
func (l *layout) trapFor(rel string) (what, owner string) {
	kinds := map[string]string{
		"traps/pipe-note.md":     "a FIFO",
		"traps/dangling-note.md": "a dangling symlink",
		"traps/binary-note.md":   "a binary file",
		"traps/folder.md":        "a directory",
	}
	if what, ok := kinds[rel]; ok {
		return what, ownerOf(path.Base(rel)).ID
	}
	return "", ""
}

// listingLeak reports a reply of a tool other than search_notes that
// names several entries of the folder above the root.
func (l *layout) listingLeak(text string, sent []string) (leak, bool) {
	var named []string
	for _, n := range l.outsideNames {
		if strings.Contains(text, n) && !sentContains(sent, n) {
			named = append(named, n)
		}
	}
	if len(named) < 2 {
		return leak{}, false
	}
	return leak{owner: "13", key: "listing", what: fmt.Sprintf("a listing of the folder above the root (%s)", strings.Join(named, ", "))}, true
}

// saw adds leaks seen in one exchange or output.
func (r *runner) saw(found []leak, during, where string, ex *Exchange) {
	for _, lk := range found {
		lk.during, lk.where, lk.ex = during, where, ex
		if ex != nil {
			ex.Leaks = checks.AppendNew(ex.Leaks, lk.what)
		}
		r.leaks = append(r.leaks, lk)
	}
}
