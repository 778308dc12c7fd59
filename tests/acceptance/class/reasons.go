package class

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"practice-notes/tests/acceptance/checks"
)

// runDetail is what the outputs read from the harness's --json run beyond
// record.Run: each check's findings, one sentence each.
type runDetail struct {
	Checks []struct {
		ID       string   `json:"id"`
		Failures []string `json:"failures"`
		Warnings []string `json:"warnings"`
	} `json:"checks"`
}

// findings maps each check id to its findings (failures, or warnings for a
// check that only warned). A run without them gives an empty map.
func findings(r *Result) map[string][]string {
	out := map[string][]string{}
	var d runDetail
	if len(r.Run) > 0 && json.Unmarshal(r.Run, &d) == nil {
		for _, c := range d.Checks {
			if len(c.Failures) > 0 {
				out[c.ID] = c.Failures
			} else if len(c.Warnings) > 0 {
				out[c.ID] = c.Warnings
			}
		}
	}
	if r.RunParsed == nil {
		return out
	}
	// A run without the lists still has them in its evidence, as the
	// lines that start with "FAIL: " or "WARN: ".
	for _, c := range r.RunParsed.Checks {
		if _, ok := out[c.ID]; ok || c.Status == checks.StatusPass {
			continue
		}
		for _, l := range strings.Split(c.Evidence, "\n") {
			if f, ok := strings.CutPrefix(l, "FAIL: "); ok {
				out[c.ID] = append(out[c.ID], f)
			} else if f, ok := strings.CutPrefix(l, "WARN: "); ok && c.Status == checks.StatusWarn {
				out[c.ID] = append(out[c.ID], f)
			}
		}
	}
	return out
}

// processOfRe is the list of checks that shared a server process, which
// a reason of a few words has no room for.
var processOfRe = regexp.MustCompile(`\s+in (?:the process of checks?(?: [\d.]+(?:(?:, | and )[\d.]+)*)?|a server process that served no check)`)

// reason is a few words saying why a check failed: its first finding,
// cut at a word boundary, or its evidence's first line.
func reason(r *Result, id string) string {
	if f := findings(r)[id]; len(f) > 0 {
		return clipWords(processOfRe.ReplaceAllString(f[0], ""), 60)
	}
	if c := r.RunParsed.Find(id); c != nil {
		return clipWords(strings.TrimPrefix(firstLine(c.Evidence, c.Title), "FAIL: "), 60)
	}
	return ""
}

// clipWords cuts s to about max bytes at a word boundary, marking the cut.
func clipWords(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= max {
		return s
	}
	cut := strings.LastIndexByte(s[:max], ' ')
	if cut < max/2 {
		cut = max
		for cut > 0 && !isRuneStart(s[cut]) {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " ,;:") + " …"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// noStart describes a server that never answered initialize: check 1 says
// so and every other failed check only points back at it.
type noStart struct {
	Why    string   // check 1's finding
	Exit   string   // "exit status 127", or "" when it did not exit
	Stderr []string // the last lines the server wrote on stderr
	Stdout []string // the first lines it wrote on stdout
	Cause  string   // the likely cause, one sentence
	NotRun []string // the other checks' ids
}

var exitStatusRe = regexp.MustCompile(`exit status (-?\d+)`)

// consequence reports whether a finding only follows from the server not
// starting, so that the check was not really run.
func consequence(f string) bool {
	return strings.HasPrefix(f, "server did not start") || strings.HasPrefix(f, "no call was answered")
}

// serverNeverStarted returns the details when the learner's server never
// started: the check that starts it (checks.ServerStart) says so, and
// every other check failed saying it could not run for that reason. Otherwise it returns nil.
func serverNeverStarted(r *Result) *noStart {
	run := r.RunParsed
	if run == nil {
		return nil
	}
	start := checks.ServerStart().ID
	c1 := run.Find(start)
	fs := findings(r)
	if c1 == nil || c1.Status != checks.StatusFail || len(fs[start]) == 0 || !strings.HasPrefix(fs[start][0], "server did not start") {
		return nil
	}
	ns := &noStart{Why: fs[start][0]}
	for _, c := range run.Checks {
		if c.ID == start || c.Status == checks.StatusPass {
			if c.Status == checks.StatusPass {
				return nil
			}
			continue
		}
		// A check that could not run says so; it may add what else it saw
		// of the process that never started (its stdout, shown below).
		if !slices.ContainsFunc(fs[c.ID], consequence) {
			return nil
		}
		ns.NotRun = append(ns.NotRun, c.ID)
	}
	if m := exitStatusRe.FindStringSubmatch(ns.Why); m != nil {
		ns.Exit = "exit status " + m[1]
	}
	for _, l := range strings.Split(c1.Evidence, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "stderr: "):
			ns.Stderr = append(ns.Stderr, strings.TrimPrefix(l, "stderr: "))
		case strings.HasPrefix(l, "stdout: "):
			ns.Stdout = append(ns.Stdout, strings.TrimPrefix(l, "stdout: "))
		}
	}
	if n := len(ns.Stderr); n > 8 {
		ns.Stderr = ns.Stderr[n-8:]
	}
	if len(ns.Stdout) > 3 {
		ns.Stdout = ns.Stdout[:3]
	}
	ns.Cause = likelyCause(r.Command, ns)
	return ns
}

var (
	nodeModuleRe   = regexp.MustCompile(`Cannot find (?:module|package) '([^']+)'`)
	pythonModuleRe = regexp.MustCompile(`No module named '?([\w.]+)'?`)
	// deniedRe is a shell's word for a program it found and may not run:
	// "/bin/sh: 1: python3: Permission denied".
	deniedRe = regexp.MustCompile(`(?m)^[^:\n]*sh: (?:(?:line )?\d+: )?([^:\n]+): Permission denied$`)
)

// likelyCause names the most likely reason a server never started, from
// its exit status and what it wrote.
func likelyCause(command string, ns *noStart) string {
	stderr := strings.Join(ns.Stderr, "\n")
	first := ""
	if f := strings.Fields(command); len(f) > 0 {
		first = f[0]
	}
	switch {
	case deniedRe.MatchString(stderr):
		// dash reports a program it found but may not run with exit
		// status 127, the status of a program it did not find.
		return "the shell found the program " + strconv.Quote(deniedRe.FindStringSubmatch(stderr)[1]) + " but may not run it (Permission denied): it is not executable for the user the checks run as, or its folder is closed to that user or mounted noexec; chmod it, or start it through its interpreter."
	case ns.Exit == "exit status 127" || strings.Contains(stderr, ": not found") || strings.Contains(stderr, "command not found"):
		return "the shell could not find the program " + strconv.Quote(first) + ": install it, or give its path relative to your folder in " + CommandFile + "."
	case nodeModuleRe.MatchString(stderr) || strings.Contains(stderr, "ERR_MODULE_NOT_FOUND"):
		mod := "a module"
		if m := nodeModuleRe.FindStringSubmatch(stderr); m != nil {
			mod = strconv.Quote(m[1])
		}
		return "Node.js could not load " + mod + ": the dependencies are not installed; run npm ci (or npm install) in your folder."
	case pythonModuleRe.MatchString(stderr):
		m := pythonModuleRe.FindStringSubmatch(stderr)
		return "Python could not import " + strconv.Quote(m[1]) + ": install your requirements (pip install -r requirements.txt) where your command's python finds them."
	case ns.Exit == "exit status 126":
		return "the program " + strconv.Quote(first) + " is not executable: chmod +x it, or start it through its interpreter."
	case ns.Exit != "":
		return "the server exited before answering initialize; its last lines on stderr say why."
	case len(ns.Stdout) > 0:
		return "the server wrote text that is not JSON-RPC on stdout and never answered initialize: stdout is for protocol messages only; write logs to stderr."
	}
	return "the command ran but never answered initialize over stdin and stdout: it does not start an MCP server over stdio, or waits for something else first."
}

// cutEvidence cuts a check's evidence to what a learner reads: requests
// shortened to method and arguments, replies without their _meta, each
// line at most maxLine bytes (around the text a finding quotes, marked
// »…«), at most maxLines lines. It reports whether anything was cut.
func cutEvidence(evidence string, maxLine, maxLines int) (string, bool) {
	lines := strings.Split(strings.TrimRight(evidence, "\n"), "\n")
	cut := false
	var quotes []string
	for _, l := range lines {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "FAIL: ") || strings.HasPrefix(t, "WARN: ") {
			quotes = append(quotes, quoted(t)...)
		}
	}
	var out []string
	for _, l := range lines {
		if short, ok := compactWire(l); ok {
			l, cut = short, true
		}
		if len(l) > maxLine {
			l = clipAround(l, quotes, maxLine)
			cut = true
		}
		out = append(out, l)
	}
	if len(out) > maxLines {
		out = append(out[:maxLines], fmt.Sprintf("… %d more lines", len(out)-maxLines))
		cut = true
	}
	return strings.Join(out, "\n"), cut
}

// compactWire shortens a JSON-RPC message quoted in evidence ("   -> {…}"
// or "   <- {…}   (3 ms)"): a request to its method, tool name and
// arguments; a reply to the message without _meta objects.
func compactWire(l string) (string, bool) {
	indent := l[:len(l)-len(strings.TrimLeft(l, " "))]
	t := strings.TrimSpace(l)
	arrow, rest, ok := strings.Cut(t, " ")
	if !ok || (arrow != "->" && arrow != "<-") || !strings.HasPrefix(rest, "{") {
		return "", false
	}
	tail := ""
	if i := strings.LastIndex(rest, "}"); i >= 0 {
		rest, tail = rest[:i+1], rest[i+1:]
	}
	var msg map[string]any
	if json.Unmarshal([]byte(rest), &msg) != nil {
		return "", false
	}
	if arrow == "->" {
		method, _ := msg["method"].(string)
		params, _ := msg["params"].(map[string]any)
		if method == "" {
			return "", false
		}
		delete(params, "_meta")
		if name, ok := params["name"].(string); ok && method == "tools/call" {
			args, _ := json.Marshal(params["arguments"])
			return indent + "-> tools/call " + name + " " + string(args) + tail, true
		}
		if len(params) == 0 {
			return indent + "-> " + method + tail, true
		}
		p, _ := json.Marshal(params)
		return indent + "-> " + method + " " + string(p) + tail, true
	}
	dropMeta(msg, 3)
	b, err := json.Marshal(msg)
	if err != nil || len(b) >= len(rest) {
		return "", false
	}
	return indent + "<- " + string(b) + tail, true
}

func dropMeta(v any, depth int) {
	m, ok := v.(map[string]any)
	if !ok || depth == 0 {
		return
	}
	delete(m, "_meta")
	for _, c := range m {
		dropMeta(c, depth-1)
	}
}

var quotedRe = regexp.MustCompile(`"([^"]{3,})"`)

// quoted lists the strings a finding quotes, such as a file name that
// should not have been returned.
func quoted(finding string) []string {
	var qs []string
	for _, m := range quotedRe.FindAllStringSubmatch(finding, -1) {
		qs = append(qs, m[1])
	}
	return qs
}

// clipAround keeps the start of a long line and, when one of quotes
// occurs in it, a window around that occurrence, marked »…«.
func clipAround(l string, quotes []string, limit int) string {
	head := limit / 3
	for _, q := range quotes {
		// Inside a JSON reply the quoted text is itself a JSON string.
		for _, form := range []string{q, strings.Trim(strconv.Quote(q), `"`)} {
			i := strings.Index(l, form)
			if i < 0 {
				continue
			}
			end := min(len(l), i+len(form)+limit/3)
			if i+len(form) <= limit {
				return l[:i] + "»" + form + "«" + safeSlice(l, i+len(form), end) + " …"
			}
			start := max(head, i-limit/3)
			return safeCut(l, head) + " … " + safeSlice(l, start, i) + "»" + form + "«" + safeSlice(l, i+len(form), end) + " …"
		}
	}
	return safeCut(l, limit) + " …"
}

func safeCut(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func safeSlice(s string, i, j int) string {
	if i >= j {
		return ""
	}
	for i < j && i < len(s) && !isRuneStart(s[i]) {
		i++
	}
	return safeCut(s[i:], j-i)
}
