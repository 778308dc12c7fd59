package checks

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/tests/acceptance/visible"
)

// ruleLeaks: no reply, stdout or stderr shows something from outside the
// root, or a file the root holds only through a link: a fragment of an
// outside file's words, an absolute path of the run's temp folder that
// the request did not carry, or a link named as a result. The generated
// phase's process searches a root of its own (Output.Root): the
// practice root and its outside fixtures are outside it, so their words
// and paths in its replies, stdout or stderr are leaks as well. Each leak is
// charged to the check that owns the fixture (Check.Fixtures), once;
// every other check that saw it says "see check N" (Assemble). Passages
// that are not in the file they are credited to are judged here too,
// run-wide: an altered one breaks check 1's rule, an invented one check
// 2's. An outside path that belongs to no fixture is check 22's.
var ruleLeaks = &Rule{
	Name:  "leaks",
	Owner: check22,
	Needs: []need{needFixtures, needNotes, needSecrets, needOutsideNames, needOutputs},
	Judge: judgeLeaks,
}

// Output is what one server process showed: the replies its client read,
// and its stdout and stderr.
type Output struct {
	Checks []string `json:"checks"` // the checks it served, in order
	Shown  []Shown  `json:"shown,omitempty"`
	Stdout string   `json:"stdout,omitempty"`
	Stderr string   `json:"stderr,omitempty"`
	// Entries and Taken are the root's, as Notes holds them, when the
	// process ended, if they differ from the run's (the traps' folder is
	// filled only around its own checks).
	Entries []string `json:"entries,omitempty"`
	Taken   []string `json:"taken,omitempty"`
	// Files holds the content of the root's regular files its replies
	// named as results or credited passages to, by root-relative path.
	Files map[string]string `json:"files,omitempty"`
	// Root is the folder the process searched, relative to the run's temp
	// folder, when it is not the practice root: "generated" for the
	// generated phase's process. Only outside words and paths are looked
	// for in such a process's output; the results and passages of its
	// replies are the generated phase's to judge, against the true
	// answers over its own root.
	Root string `json:"root,omitempty"`
}

// practiceRoot is where the practice root is in the run's temp folder.
const practiceRoot = "root"

// Shown is one reply as the client read it.
type Shown struct {
	Check string   `json:"check"` // the check that sent the request
	Step  string   `json:"step"`  // names the exchange, for its quote
	Label string   `json:"label"` // the method, and the tool of a tools/call
	Sent  []string `json:"sent,omitempty"`
	// Text is everything the reply said (the error, when there was no
	// reply): the text of its content blocks and the result as JSON.
	// Empty with a Result, it is that: a transcript leaves it out.
	Text string `json:"text,omitempty"`
	// Result is a tool call's result as JSON, when it had one; a search's
	// is read for the files it names.
	Result string `json:"result,omitempty"`
	Tool   string `json:"tool,omitempty"`
	Query  string `json:"query,omitempty"`
}

// resultText is what a tool result (as JSON) says, as Shown.Text holds
// it: the text of its content blocks, then the result itself.
func resultText(result string) string {
	var res mcp.CallToolResult
	if json.Unmarshal([]byte(result), &res) != nil {
		return "\n" + result
	}
	return ToolText(&res) + "\n" + result
}

// LeakRule is the run-wide rule that nothing from outside the root is
// shown.
func LeakRule() *Rule { return ruleLeaks }

// A leak is shown by leakRun bytes in a row of a secret note's text
// that hold at least tokenWindow characters of one of its words (12
// random hex digits, which the harness never sends). Seven characters of
// a word alone are not enough: a correct server's "Query too long: 2097152
// characters" once held seven digits of a secret word, and a SHA-256 in a
// reply meets one of the 264 seven-digit windows of the 11 secret notes'
// words with odds of 58 × 264 / 16⁷, 1 in 17,500. Ten bytes of the text
// are: a cut of a word next to the marker it follows in the note, as a
// snippet around the query shows it, or ten digits of a word (55 × 132 /
// 16¹⁰ for that hash, 1 in 150 million).
const (
	tokenWindow = 7
	leakRun     = 10
)

// leakHint says what to fix for a leak, by the check whose rule it breaks.
func leakHint(c *Check) string {
	switch c {
	case check1:
		return "Return each passage byte-for-byte as it is in the file: no cutting, ellipses, re-casing or reflowing."
	case check2:
		return "Quote only text that is in the file the passage is credited to; never compose or summarise one."
	}
	return "Never put absolute paths in replies; name files relative to the practice root."
}

// trapKinds are the traps of check 20 (its Planting makes them in the
// folder traps), by root-relative path.
var trapKinds = map[string]string{
	"traps/pipe-note.md":     "a FIFO",
	"traps/dangling-note.md": "a dangling symlink",
	"traps/binary-note.md":   "a binary file",
	"traps/folder.md":        "a directory",
}

// guarded is a fixture no reply may show.
type guarded struct {
	name  string
	f     Fixture
	owner *Check
}

// leakScan holds what the leak rule reads of the facts.
type leakScan struct {
	facts    *Facts
	base     string // the run's temp folder
	baseReal string // with symlinks resolved
	guarded  []guarded
	notes    *Notes // of the process being judged
	files    map[string]string
}

func judgeLeaks(f *Facts) Verdict {
	l := &leakScan{facts: f, base: f.Fixtures[TempFolder].Path}
	l.baseReal = l.base
	if f.Notes != nil && len(f.Notes.Roots) > 1 {
		l.baseReal = strings.TrimSuffix(f.Notes.Roots[1], "/root")
	}
	for _, name := range f.Secrets {
		if c := owner(name); c != nil {
			l.guarded = append(l.guarded, guarded{name: name, f: f.Fixtures[name], owner: c})
		}
	}
	var v Verdict
	for _, o := range f.Outputs {
		v.Sightings = append(v.Sightings, l.process(o)...)
	}
	return v
}

// owner returns the check that plants and owns the fixture named name,
// as the recorded facts name it; nil for none.
func owner(name string) *Check {
	for _, c := range all {
		for _, p := range c.Fixtures {
			if p.Name == name {
				return c
			}
		}
	}
	return nil
}

// process judges one server process's replies, stdout and stderr.
func (l *leakScan) process(o Output) []Sighting {
	n := Notes{}
	if l.facts.Notes != nil {
		n = *l.facts.Notes
	}
	if o.Entries != nil || o.Taken != nil {
		n.Entries, n.Taken = o.Entries, o.Taken
	}
	l.notes, l.files = &n, o.Files
	var out []Sighting
	seen := map[string]bool{}
	var sent []string
	for _, sh := range o.Shown {
		sent = append(sent, sh.Sent...)
		text := sh.Text
		if text == "" && sh.Result != "" {
			text = resultText(sh.Result)
		}
		found := l.contentLeaks(text)
		found = append(found, l.pathLeaks(text, sh.Sent, o.Root, true)...)
		if sh.Result != "" && o.Root == "" {
			if sh.Tool == "search_notes" {
				found = append(found, l.resultLeaks(sh)...)
			} else if s, ok := l.listingLeak(text, sh.Sent); ok {
				found = append(found, s)
			}
		}
		during, _ := ByID(sh.Check)
		for i := range found {
			if during == check13 && !found[i].Warn {
				// Its calls name a root or a folder: what comes back
				// breaks check 13's rule, whichever file it is.
				found[i].Owner = check13
			}
			seen[found[i].Key] = true
			found[i].During, found[i].Where, found[i].Step = during, "the reply to "+sh.Label, sh.Step
		}
		out = append(out, found...)
	}
	during := ProcessOf(strings.Join(o.Checks, ", "))
	// Notifications and anything else on stdout.
	for _, s := range l.contentLeaks(o.Stdout) {
		if !seen[s.Key] {
			s.Where = "stdout of " + during
			out = append(out, s)
		}
	}
	// Outside text on stderr is a leak; an outside path there is for the
	// person running the server, not the client: a warning.
	for _, s := range l.contentLeaks(o.Stderr) {
		s.Where = "stderr of " + during
		out = append(out, s)
	}
	for _, s := range l.pathLeaks(o.Stderr, sent, o.Root, false) {
		s.Where, s.Warn = "stderr of "+during, true
		out = append(out, s)
	}
	return out
}

// contentLeaks finds runs of the guarded fixtures' text in text.
func (l *leakScan) contentLeaks(text string) []Sighting {
	var out []Sighting
	for _, g := range l.guarded {
		if frag, ok := shownRun(text, g.f); ok {
			line, _ := lineWith(text, frag)
			out = append(out, Sighting{Owner: g.owner, Key: "text of " + g.name, What: "text of " + g.f.Label, Line: line, Warn: g.owner.Warns})
		}
	}
	return out
}

// shownRun returns the first run of f's text in text that is leakRun
// bytes long and holds tokenWindow characters of one of f's words. Where
// the facts do not hold the note's text, its words alone stand for it.
func shownRun(text string, f Fixture) (string, bool) {
	src := f.Text
	if src == "" {
		src = strings.Join(f.Words, "\n")
	}
	for _, w := range f.Words {
		for p := strings.Index(src, w); p >= 0; p = indexAfter(src, w, p) {
			for i := p; i+tokenWindow <= p+len(w); i++ {
				if run, ok := runAround(text, src, i); ok {
					return run, true
				}
			}
		}
	}
	return "", false
}

// runAround finds the tokenWindow bytes at src[i:] in text and extends
// each match both ways while text and src agree; it returns the first
// that reaches leakRun bytes.
func runAround(text, src string, i int) (string, bool) {
	frag := src[i : i+tokenWindow]
	for r := strings.Index(text, frag); r >= 0; r = indexAfter(text, frag, r) {
		a, b, sa, sb := r, r+tokenWindow, i, i+tokenWindow
		for a > 0 && sa > 0 && text[a-1] == src[sa-1] {
			a, sa = a-1, sa-1
		}
		for b < len(text) && sb < len(src) && text[b] == src[sb] {
			b, sb = b+1, sb+1
		}
		if b-a >= leakRun {
			return text[a:b], true
		}
	}
	return "", false
}

// indexAfter is the index of the next occurrence of sub in s after the
// one at i, or -1.
func indexAfter(s, sub string, i int) int {
	if j := strings.Index(s[i+1:], sub); j >= 0 {
		return i + 1 + j
	}
	return -1
}

// pathLeaks finds absolute paths of the run's temp folder that no sent
// string contains. A path outside the process's root (root, "" for the
// practice root) fails its owner's check; with rootToo, one inside it
// (the server's own root) warns under check 22: it reveals where the
// folder lives, which no reply needs.
func (l *leakScan) pathLeaks(text string, sent []string, root string, rootToo bool) []Sighting {
	var out []Sighting
	seen := map[string]bool{}
	if root == "" {
		root = practiceRoot
	}
	root = "/" + root
	for _, base := range uniq(l.base, l.baseReal) {
		for i := 0; ; {
			j := strings.Index(text[i:], base)
			if j < 0 {
				break
			}
			start := i + j
			end := pathEnd(text, start+len(base))
			i = end
			p := strings.TrimRight(text[start:end], ".:!?")
			rest := p[len(base):]
			inRoot := rest == root || strings.HasPrefix(rest, root+"/") && !strings.Contains(rest, "/..")
			if seen[p] || sentContains(sent, p) || inRoot && !rootToo {
				continue
			}
			seen[p] = true
			line, _ := lineWith(text, p)
			if inRoot {
				out = append(out, Sighting{Owner: check22, Key: "root path", What: "the root's absolute path (" + p + ")", Line: line, Warn: true,
					Hint: "Name notes relative to the practice root; an absolute path tells the client where the user's files live."})
				continue
			}
			owner, what := l.pathOwner(base, rest)
			out = append(out, Sighting{Owner: owner, Key: "path " + what, What: "the absolute path of " + what, Line: line, Hint: leakHint(check22)})
		}
	}
	return out
}

// pathEnd returns where a path that runs on from text[i] ends: at white
// space, at an ASCII delimiter, at a quotation mark or bracket of any
// script (“ ” ‘ ’ « » „ 「 」), or at other punctuation outside ASCII
// (、。，：). Paths of the run are ASCII, so none of these is part of one.
func pathEnd(text string, i int) int {
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r < utf8.RuneSelf && strings.ContainsRune(" \t\r\n\"'`,;()[]<>{}\x00\\", r) ||
			r >= utf8.RuneSelf && (unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.Is(unicode.Quotation_Mark, r)) ||
			r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return i
}

// pathOwner says whose rule revealing an outside path breaks: the check
// of the link or argument that points there, else check 22's.
func (l *leakScan) pathOwner(base, rest string) (*Check, string) {
	under := func(p string) bool {
		if p == "" {
			return false
		}
		r := strings.TrimPrefix(p, l.base)
		return rest == r || strings.HasPrefix(rest, r+"/")
	}
	f := l.facts
	switch {
	case under(dirOf(f.of(dirSecret).Path)):
		return ownerOf(linkedDir), "the outside folder behind linked-dir"
	case under(dirOf(f.of(siblingNote).Path)):
		return ownerOf(siblingNote), "the sibling folder root-old"
	case under(f.of(callerRoot).Path):
		return ownerOf(callerRoot), "the folder offered as a caller-selected root"
	}
	for _, g := range l.guarded {
		if under(g.f.Path) {
			return g.owner, g.f.Label
		}
	}
	if abs := f.of(absoluteNote).Path; under(dirOf(abs)) {
		return ownerOf(absoluteNote), "the outside folder of " + filepath.Base(abs)
	}
	return check22, "the run's temp folder (" + base + rest + ")"
}

// dirOf is the folder of an absolute path, "" for none.
func dirOf(p string) string {
	if p == "" {
		return ""
	}
	return filepath.Dir(p)
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
func (l *leakScan) resultLeaks(sh Shown) []Sighting {
	var res mcp.CallToolResult
	if json.Unmarshal([]byte(sh.Result), &res) != nil {
		return nil
	}
	var paras []Paragraph
	if l.facts.Notes != nil {
		paras = l.facts.Notes.Paras
	}
	rd := ReadResult(&res, sh.Query, paras)
	outside := ownerOf(outsideNote)
	var out []Sighting
	for _, f := range rd.Results {
		rel, ok := l.notes.RootRel(f)
		if !ok {
			out = append(out, Sighting{Owner: outside, Key: "result outside " + f, What: fmt.Sprintf("a result naming %q, outside the root", f)})
			continue
		}
		if ln, isLink := l.linkFor(rel); isLink {
			kind := "symlink"
			if ln.Hard {
				kind = "hard link"
			}
			c := owner(ln.Rel)
			if c == nil {
				c = check22 // a link no check plants: the path rule's
			}
			out = append(out, Sighting{Owner: c, Key: "link " + ln.Rel, What: fmt.Sprintf("the %s %s named as a result (%q)", kind, ln.Rel, f), Warn: c.Warns})
			continue
		}
		if trap, ok := trapKinds[rel]; ok {
			out = append(out, Sighting{Owner: check20, Key: "trap " + rel, What: fmt.Sprintf("%s (%s) named as a result", rel, trap)})
		}
	}
	for _, it := range rd.Items {
		if len(it.Passage) < 12 {
			continue
		}
		rel, ok := l.notes.RootRel(it.File)
		if !ok {
			continue
		}
		if _, isLink := l.linkFor(rel); isLink {
			continue
		}
		if _, isTrap := trapKinds[rel]; isTrap {
			continue // naming it is check 20's finding; its bytes are not text to compare
		}
		content, ok := l.files[rel]
		if !ok {
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
			out = append(out, Sighting{Owner: check1, Key: "altered passage", What: fmt.Sprintf("a passage credited to %s that is not byte-for-byte in it (cut, re-cased or padded): %q", rel, visible.Clip(it.Passage, 100)), Hint: leakHint(check1)})
		case sh.Check != check2.ID:
			out = append(out, Sighting{Owner: check2, Key: "invented passage", What: fmt.Sprintf("a passage credited to %s that is not in it (invented): %q", rel, visible.Clip(it.Passage, 100)), Hint: leakHint(check2)})
		}
	}
	return out
}

// linkFor returns the link fixture a root-relative name is or goes through.
func (l *leakScan) linkFor(rel string) (Link, bool) {
	rel = strings.TrimPrefix(filepath.ToSlash(rel), "./")
	for _, ln := range l.notes.Links {
		if rel == ln.Rel || (ln.Dir && strings.HasPrefix(rel, ln.Rel+"/")) {
			return ln, true
		}
	}
	return Link{}, false
}

// listingLeak reports a reply of a tool other than search_notes that
// names several entries of the folder above the root.
func (l *leakScan) listingLeak(text string, sent []string) (Sighting, bool) {
	var named []string
	for _, n := range l.facts.OutsideNames {
		if strings.Contains(text, n) && !sentContains(sent, n) {
			named = append(named, n)
		}
	}
	if len(named) < 2 {
		return Sighting{}, false
	}
	return Sighting{Owner: ownerOf(callerRoot), Key: "listing", What: fmt.Sprintf("a listing of the folder above the root (%s)", strings.Join(named, ", "))}, true
}

// lineWith returns the line of text holding sub.
func lineWith(text, sub string) (string, bool) {
	i := strings.Index(text, sub)
	if i < 0 {
		return "", false
	}
	start := strings.LastIndexByte(text[:i], '\n') + 1
	end := strings.IndexByte(text[i:], '\n')
	if end < 0 {
		end = len(text)
	} else {
		end += i
	}
	return text[start:end], true
}

func uniq(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" && !contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// Bounds of what a leak rule transcript keeps of one process.
const (
	keptClean     = 3     // replies without a leak, besides those with one
	keptCleanSize = 4096  // the largest such reply kept
	keptLines     = 20    // stdout or stderr lines with a leak
	keptFileSize  = 16384 // the largest note content kept
)

// LeakTranscriptFacts cuts the leak rule's facts down to what a
// transcript keeps: each process's replies that show a leak and a few
// that show none (of the others, only what their requests sent, which no
// echo may be charged for), a reply's text only where its result does
// not say it, the stdout and stderr lines that show a leak, and the
// notes up to keptFileSize. The transcript's verdict is the judge's on
// what is kept.
func LeakTranscriptFacts(f *Facts) *Facts {
	out := *f
	out.Outputs = nil
	leaks := func(o Output) bool {
		g := *f
		g.Outputs = []Output{o}
		return len(judgeLeaks(&g).Sightings) > 0
	}
	for _, o := range f.Outputs {
		k := Output{Checks: o.Checks, Entries: o.Entries, Taken: o.Taken, Root: o.Root}
		for rel, content := range o.Files {
			if len(content) <= keptFileSize {
				if k.Files == nil {
					k.Files = map[string]string{}
				}
				k.Files[rel] = content
			}
		}
		var sent []Shown
		for _, sh := range o.Shown {
			sent = append(sent, Shown{Check: sh.Check, Step: sh.Step, Label: sh.Label, Sent: sh.Sent})
		}
		clean := 0
		for _, sh := range o.Shown {
			if sh.Result != "" && sh.Text == resultText(sh.Result) {
				sh.Text = ""
			}
			one := o
			one.Shown, one.Stdout, one.Stderr = []Shown{sh}, "", ""
			switch {
			case leaks(one):
			case clean < keptClean && len(sh.Result)+len(sh.Text) <= keptCleanSize:
				clean++
			default:
				sh = Shown{Check: sh.Check, Step: sh.Step, Label: sh.Label, Sent: sh.Sent}
			}
			k.Shown = append(k.Shown, sh)
		}
		k.Stdout = keptLinesOf(o.Stdout, func(line string) bool {
			return leaks(Output{Checks: o.Checks, Shown: sent, Stdout: line, Root: o.Root})
		})
		k.Stderr = keptLinesOf(o.Stderr, func(line string) bool {
			return leaks(Output{Checks: o.Checks, Shown: sent, Stderr: line, Root: o.Root})
		})
		out.Outputs = append(out.Outputs, k)
	}
	return &out
}

// keptLinesOf keeps the first keptLines lines of text that show a leak.
func keptLinesOf(text string, leaks func(string) bool) string {
	var kept []string
	for _, line := range strings.Split(text, "\n") {
		if len(kept) < keptLines && line != "" && leaks(line) {
			kept = append(kept, line)
		}
	}
	if len(kept) == 0 {
		return ""
	}
	return strings.Join(kept, "\n") + "\n"
}
