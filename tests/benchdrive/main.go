// Command benchdrive measures a practice-notes binary over real stdio, the
// way a desktop client talks to it, and compares it with ripgrep and grep
// run as whole processes on the same folders. scripts/bench.sh runs it; it
// prints a Markdown report on stdout.
//
// For each corpus (given as -corpus 'LABEL=DIR', in order) it measures:
//
//   - spawn to first reply: from starting `practice-notes serve` to reading
//     its answer to `initialize`, over -spawns fresh processes;
//   - the first tools/call of a fresh server (the absent phrase), over
//     -firsts fresh processes, each followed by the same search with rg;
//   - tools/call latency for a present phrase, an absent one, an absent
//     phrase of common words (every note may hold all its parts), and a
//     phrase so common that the search stops at 10 passages: one server,
//     -warmup calls of each, then -calls measured calls of each, each
//     followed by the same search with `rg -i -F -c` and (for the first
//     -grep-calls rounds) `grep -r -i -F -c`, so that ours and theirs
//     alternate and a noisy machine hurts both alike;
//   - the server's peak resident memory (VmHWM, read from /proc before it
//     exits, and ru_maxrss after).
//
// For each -rss-corpus it measures only the peak resident memory of one
// server over a short session with a pause between calls (see measureRSS),
// to show whether memory stays flat as the folder grows.
//
// Every reply is checked: the absent phrases must give no passage, the
// early one 10 (on a corpus of more than one note), and the
// present one must give -want passages, or the run fails. JSON-RPC lines are
// written and read directly on the pipes so that nothing but the server and
// the pipe is timed.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

type corpusFlag []string

func (c *corpusFlag) String() string     { return strings.Join(*c, ",") }
func (c *corpusFlag) Set(v string) error { *c = append(*c, v); return nil }

var (
	bin         = flag.String("bin", "", "practice-notes `binary` to measure")
	rgPath      = flag.String("rg", "", "ripgrep `binary`; empty to skip")
	grepPath    = flag.String("grep", "", "grep `binary`; empty to skip")
	present     = flag.String("present", "amber signal drift", "a phrase the corpora hold")
	absent      = flag.String("absent", "velvet lantern", "a phrase no corpus holds")
	common      = flag.String("common", "the release was the team login", "a phrase of common words no corpus holds")
	early       = flag.String("early", "the team", "a phrase so common that the search stops at 10 passages")
	firsts      = flag.Int("firsts", 10, "fresh processes whose first call is timed")
	spawns      = flag.Int("spawns", 30, "processes started to time spawn to first reply")
	warmup      = flag.Int("warmup", 10, "unmeasured calls of each phrase first")
	calls       = flag.Int("calls", 100, "measured calls of each phrase")
	grepCalls   = flag.Int("grep-calls", 10, "rounds that also run grep (it is slow on large folders)")
	wantFlag    = flag.String("want", "", "comma-separated passages the present phrase must give, one per corpus")
	baseBin     = flag.String("base", "", "a second practice-notes `binary` measured beside -bin on the -scale-corpus folders")
	scaleFirsts = flag.Int("scale-firsts", 5, "fresh servers whose first call is timed per -scale-corpus")
	scaleRounds = flag.Int("scale-rounds", 10, "rounds of steady calls per -scale-corpus")
	scaleIdle   = flag.Duration("scale-idle", 4*time.Second, "idle time before the steady calls of a -scale-corpus, for summaries to be made")
	scaleGap    = flag.Duration("scale-gap", time.Second, "idle time between rounds of steady calls of a -scale-corpus")
	rssPause    = flag.Duration("rss-pause", 3*time.Second, "idle time between the calls of a -rss-corpus run, for summaries to be made")

	rssCorpora corpusFlag
)

func main() {
	var corpora corpusFlag
	flag.Var(&corpora, "corpus", "`LABEL=DIR` of a corpus to measure; repeat for several")
	var scaleCorpora corpusFlag
	flag.Var(&scaleCorpora, "scale-corpus", "`LABEL=DIR` of a large folder measured for the scale targets (see measureScale); repeat for several")
	flag.Var(&rssCorpora, "rss-corpus", "`LABEL=DIR` of a corpus whose peak memory alone is measured; repeat for several, in growing order")
	flag.Parse()
	if *bin == "" || len(corpora)+len(scaleCorpora) == 0 {
		fmt.Fprintln(os.Stderr, "benchdrive: give -bin and at least one -corpus or -scale-corpus LABEL=DIR")
		os.Exit(2)
	}
	var wants []int
	for _, w := range strings.Split(*wantFlag, ",") {
		if w == "" {
			continue
		}
		n, err := strconv.Atoi(w)
		if err != nil {
			fail(fmt.Errorf("-want: %v", err))
		}
		wants = append(wants, n)
	}
	var rows []row
	for i, c := range corpora {
		label, dir, ok := strings.Cut(c, "=")
		if !ok {
			fail(fmt.Errorf("-corpus %q: want LABEL=DIR", c))
		}
		want := -1
		if i < len(wants) {
			want = wants[i]
		}
		fmt.Fprintf(os.Stderr, "benchdrive: %s (%s)\n", label, dir)
		r, err := measure(label, dir, want)
		if err != nil {
			fail(fmt.Errorf("%s: %w", label, err))
		}
		rows = append(rows, r)
	}
	var grow []rssRow
	for _, c := range rssCorpora {
		label, dir, ok := strings.Cut(c, "=")
		if !ok {
			fail(fmt.Errorf("-rss-corpus %q: want LABEL=DIR", c))
		}
		fmt.Fprintf(os.Stderr, "benchdrive: %s (%s), memory only\n", label, dir)
		r, err := measureRSS(label, dir)
		if err != nil {
			fail(fmt.Errorf("%s: %w", label, err))
		}
		grow = append(grow, r)
	}
	var scale []scaleRow
	for _, c := range scaleCorpora {
		label, dir, ok := strings.Cut(c, "=")
		if !ok {
			fail(fmt.Errorf("-scale-corpus %q: want LABEL=DIR", c))
		}
		fmt.Fprintf(os.Stderr, "benchdrive: %s (%s), large folder\n", label, dir)
		r, err := measureScale(label, dir)
		if err != nil {
			fail(fmt.Errorf("%s: %w", label, err))
		}
		scale = append(scale, r)
	}
	if len(rows) > 0 {
		report(os.Stdout, rows, grow)
	}
	var b bytes.Buffer
	reportScale(&b, scale)
	os.Stdout.Write(b.Bytes())
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "benchdrive: %v\n", err)
	os.Exit(1)
}

// row holds the measurements of one corpus.
type row struct {
	label             string
	files             int
	bytes             int64
	spawn             []time.Duration
	ours, rg, grep    map[string][]time.Duration // by phrase kind: "present", "absent", "common", "early"
	burst             map[string][]time.Duration // ours, calls back to back
	first, firstRG    []time.Duration            // first call of a fresh server, and rg after it
	hwmKiB, maxrssKiB int64
	matches           map[string]int
}

func measure(label, dir string, want int) (row, error) {
	r := row{label: label, ours: map[string][]time.Duration{}, rg: map[string][]time.Duration{},
		grep: map[string][]time.Duration{}, burst: map[string][]time.Duration{}, matches: map[string]int{}}
	var err error
	r.files, r.bytes, err = corpusSize(dir)
	if err != nil {
		return r, err
	}
	for range *spawns {
		d, err := spawnTime(dir)
		if err != nil {
			return r, err
		}
		r.spawn = append(r.spawn, d)
	}
	for range *firsts {
		d, err := firstCall(*bin, dir)
		if err != nil {
			return r, err
		}
		r.first = append(r.first, d)
		if *rgPath != "" {
			d, _, err := wholeProcess(*rgPath, "-i", "-F", "-c", "--", *absent, dir)
			if err != nil {
				return r, err
			}
			r.firstRG = append(r.firstRG, d)
		}
	}
	s, err := session(*bin, dir)
	if err != nil {
		return r, err
	}
	defer s.kill()
	phrases := []struct{ kind, text string }{{"present", *present}, {"absent", *absent}, {"common", *common}, {"early", *early}}
	for range *warmup {
		for _, p := range phrases {
			if _, _, err := s.call(p.text); err != nil {
				return r, err
			}
		}
	}
	for i := range *calls {
		for _, p := range phrases {
			d, n, err := s.call(p.text)
			if err != nil {
				return r, err
			}
			r.ours[p.kind] = append(r.ours[p.kind], d)
			r.matches[p.kind] = n
			switch {
			case p.kind == "early" && r.files > 1 && n != 10:
				return r, fmt.Errorf("the early phrase %q gave %d passages, want 10", p.text, n)
			case p.kind != "present" && p.kind != "early" && n != 0:
				return r, fmt.Errorf("the absent phrase %q gave %d passages", p.text, n)
			case p.kind == "present" && want >= 0 && n != want:
				return r, fmt.Errorf("the present phrase %q gave %d passages, want %d", p.text, n, want)
			}
			if *rgPath != "" {
				d, out, err := wholeProcess(*rgPath, "-i", "-F", "-c", "--", p.text, dir)
				if err != nil {
					return r, err
				}
				// ripgrep skips what a .gitignore above the folder
				// ignores; a timing of a search that read nothing would
				// be meaningless.
				if p.kind == "present" && len(bytes.TrimSpace(out)) == 0 {
					return r, fmt.Errorf("rg found nothing for %q in %s; is the folder ignored by a .gitignore above it?", p.text, dir)
				}
				r.rg[p.kind] = append(r.rg[p.kind], d)
			}
			if *grepPath != "" && i < *grepCalls {
				d, _, err := wholeProcess(*grepPath, "-r", "-i", "-F", "-c", "--", p.text, dir)
				if err != nil {
					return r, err
				}
				r.grep[p.kind] = append(r.grep[p.kind], d)
			}
		}
	}
	// The same calls back to back, with nothing else running in between:
	// what a client sending a burst of calls sees.
	for range *calls {
		for _, p := range phrases {
			d, _, err := s.call(p.text)
			if err != nil {
				return r, err
			}
			r.burst[p.kind] = append(r.burst[p.kind], d)
		}
	}
	r.hwmKiB, err = s.peakRSS()
	if err != nil {
		return r, err
	}
	r.maxrssKiB, err = s.close()
	return r, err
}

func corpusSize(dir string) (files int, size int64, err error) {
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			files++
			size += info.Size()
		}
		return nil
	})
	return files, size, err
}

// server is one running `practice-notes serve` with pipes to it.
type server struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

func start(binary, dir string) (*server, error) {
	cmd := exec.Command(binary, "serve", "-root", dir, "-log-level", "error")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &server{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}, nil
}

// session starts a server on dir and initializes it.
func session(binary, dir string) (*server, error) {
	s, err := start(binary, dir)
	if err != nil {
		return nil, err
	}
	if _, err := s.initialize(); err != nil {
		s.kill()
		return nil, err
	}
	return s, nil
}

// firstCall starts a server, initializes it and times its first call.
func firstCall(binary, dir string) (time.Duration, error) {
	s, err := session(binary, dir)
	if err != nil {
		return 0, err
	}
	defer s.kill()
	d, n, err := s.call(*absent)
	if err == nil && n != 0 {
		err = fmt.Errorf("the absent phrase %q gave %d passages", *absent, n)
	}
	if err != nil {
		return 0, err
	}
	_, err = s.close()
	return d, err
}

// spawnTime starts a server and times it up to its reply to initialize.
func spawnTime(dir string) (time.Duration, error) {
	t0 := time.Now()
	s, err := session(*bin, dir)
	if err != nil {
		return 0, err
	}
	defer s.kill()
	d := time.Since(t0)
	_, err = s.close()
	return d, err
}

func (s *server) send(method string, params any, notify bool) error {
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if !notify {
		s.id++
		msg["id"] = s.id
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = s.in.Write(append(b, '\n'))
	return err
}

type response struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// receive reads lines until the reply to the last request.
func (s *server) receive() (*response, error) {
	for {
		line, err := s.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("reading from the server: %w", err)
		}
		var r response
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("the server wrote a line that is not JSON-RPC: %q", line)
		}
		if r.ID != s.id {
			continue // a notification or request from the server
		}
		if r.Error != nil {
			return nil, fmt.Errorf("JSON-RPC error %d: %s", r.Error.Code, r.Error.Message)
		}
		return &r, nil
	}
}

func (s *server) initialize() (*response, error) {
	err := s.send("initialize", map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "benchdrive", "version": "1"},
	}, false)
	if err != nil {
		return nil, err
	}
	r, err := s.receive()
	if err != nil {
		return nil, err
	}
	return r, s.send("notifications/initialized", map[string]any{}, true)
}

// call times one tools/call of search_notes and returns how many passages
// it gave.
func (s *server) call(query string) (time.Duration, int, error) {
	t0 := time.Now()
	if err := s.send("tools/call", map[string]any{"name": "search_notes", "arguments": map[string]any{"query": query}}, false); err != nil {
		return 0, 0, err
	}
	r, err := s.receive()
	d := time.Since(t0)
	if err != nil {
		return 0, 0, err
	}
	var res struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Matches []json.RawMessage `json:"matches"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		return 0, 0, err
	}
	if res.IsError {
		return 0, 0, fmt.Errorf("tool error for %q: %s", query, r.Result)
	}
	return d, len(res.StructuredContent.Matches), nil
}

// peakRSS reads the server's peak resident set size in KiB.
func (s *server) peakRSS() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, errors.New("no VmHWM in /proc status")
}

// close ends the session the way a client does, by closing stdin, and
// returns the process's ru_maxrss in KiB.
func (s *server) close() (int64, error) {
	s.in.Close()
	io.Copy(io.Discard, s.out)
	if err := s.cmd.Wait(); err != nil {
		return 0, fmt.Errorf("server exit: %w", err)
	}
	return maxRSSKiB(s.cmd.ProcessState), nil
}

func (s *server) kill() {
	if s.cmd.ProcessState == nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	}
}

// wholeProcess times one run of a command and returns its output. Exit
// status 1 (nothing found) is not a failure.
func wholeProcess(name string, args ...string) (time.Duration, []byte, error) {
	var out bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout = &out
	t0 := time.Now()
	err := cmd.Run()
	d := time.Since(t0)
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 {
		err = nil
	}
	if err != nil {
		return 0, nil, fmt.Errorf("%s: %w", name, err)
	}
	return d, out.Bytes(), nil
}

func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(p/100*float64(len(s)) + 0.5)
	return s[min(max(i-1, 0), len(s)-1)]
}

func median(ds []time.Duration) time.Duration { return pct(ds, 50) }

func ms(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch {
	case d == 0:
		return "–"
	case v < 1:
		return fmt.Sprintf("%.3f ms", v)
	case v < 100:
		return fmt.Sprintf("%.1f ms", v)
	}
	return fmt.Sprintf("%.0f ms", v)
}

func ratio(a, b time.Duration) string {
	if a == 0 || b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

func size(n int64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.0f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

func report(w io.Writer, rows []row, grow []rssRow) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "| corpus | spawn → first reply (median) | phrase | ours p50 | ours p99 | rg p50 | ours/rg | grep p50 | ours p50 / p99 back to back | peak RSS |\n")
	fmt.Fprintf(&b, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, r := range rows {
		for i, kind := range []string{"present", "absent", "common", "early"} {
			corpus, spawn, rss := "", "", ""
			if i == 0 {
				corpus = fmt.Sprintf("%s: %d × %s = %s", r.label, r.files, size(r.bytes/int64(max(r.files, 1))), size(r.bytes))
				spawn = ms(median(r.spawn))
				rss = fmt.Sprintf("%.1f MiB", float64(r.hwmKiB)/1024)
			}
			fmt.Fprintf(&b, "| %s | %s | %s (%d passages) | %s | %s | %s | %s | %s | %s / %s | %s |\n",
				corpus, spawn, kind, r.matches[kind],
				ms(median(r.ours[kind])), ms(pct(r.ours[kind], 99)),
				ms(median(r.rg[kind])), ratio(median(r.ours[kind]), median(r.rg[kind])),
				ms(median(r.grep[kind])), ms(median(r.burst[kind])), ms(pct(r.burst[kind], 99)), rss)
		}
	}
	fmt.Fprintf(&b, "\nFirst call of a fresh server (absent phrase, median of %d, each followed by rg):\n\n", *firsts)
	for _, r := range rows {
		fmt.Fprintf(&b, "- %s: %s, rg %s, ratio %s\n", r.label, ms(median(r.first)), ms(median(r.firstRG)), ratio(median(r.first), median(r.firstRG)))
	}
	fmt.Fprintf(&b, "\nPhrases: present %q, absent %q, common (absent, of common words) %q, early (stops at 10 passages) %q.\n", *present, *absent, *common, *early)
	fmt.Fprintf(&b, "\nRuns: %d spawns per corpus; %d warm-up and %d measured calls of each phrase, each followed by rg (and grep for the first %d) on the same folder (ours p50/p99, rg, grep); then %d more calls of each phrase back to back with nothing in between. Peak RSS is the server's VmHWM after all calls (ru_maxrss at exit: %s).\n",
		*spawns, *warmup, *calls, *grepCalls, *calls, maxrssList(rows))

	fmt.Fprintf(&b, "\nCost of the absent phrase (ours p50) per bytes and per file scanned:\n\n")
	for _, r := range rows {
		if r.bytes < 1e6 {
			continue
		}
		fmt.Fprintf(&b, "- %s: %.1f ms per 100 MB, %.1f µs per file\n", r.label,
			float64(median(r.ours["absent"]))/float64(time.Millisecond)/float64(r.bytes)*1e8,
			float64(median(r.ours["absent"]))/float64(time.Microsecond)/float64(max(r.files, 1)))
	}
	if n := len(rows); n >= 2 && rows[n-1].bytes > rows[n-2].bytes && rows[n-2].bytes >= 1e6 {
		a, c := rows[n-2], rows[n-1]
		dt := float64(median(c.ours["absent"])-median(a.ours["absent"])) / float64(time.Millisecond)
		fmt.Fprintf(&b, "- between the two: %.1f ms per 100 MB\n", dt/float64(c.bytes-a.bytes)*1e8)
		// t = perFile·files + perByte·bytes through both points.
		ta, tc := float64(median(a.ours["absent"])), float64(median(c.ours["absent"]))
		fa, fc, ba, bc := float64(a.files), float64(c.files), float64(a.bytes), float64(c.bytes)
		if det := fa*bc - fc*ba; det != 0 {
			perFile := (ta*bc - tc*ba) / det
			perByte := (fa*tc - fc*ta) / det
			if perFile < 0 || perByte < 0 {
				fmt.Fprintf(&b, "- a cost per file plus a cost per byte through both points has a negative part: the time follows the number of files, not the bytes\n")
			} else {
				fmt.Fprintf(&b, "- as a cost per file plus a cost per byte through both points: %.1f µs per file + %.1f ms per 100 MB\n",
					perFile/float64(time.Microsecond), perByte*1e8/float64(time.Millisecond))
			}
		}
	}
	reportRSS(&b, grow)
	targets(&b, rows, grow)
	w.Write(b.Bytes())
}

// targets checks the measurements against the goals of the performance
// issue: the first corpus is taken as the one-small-file case and the last
// as the largest.
func targets(b *bytes.Buffer, rows []row, grow []rssRow) {
	first, last := rows[0], rows[len(rows)-1]
	var spawn []time.Duration
	for _, r := range rows {
		spawn = append(spawn, r.spawn...)
	}
	fmt.Fprintf(b, "\nTargets:\n\n| target | measured | |\n| --- | --- | --- |\n")
	sp := median(spawn)
	fmt.Fprintf(b, "| spawn to first reply ≤ 15 ms (median) | %s | %s |\n", ms(sp), check(sp <= 15*time.Millisecond))
	small := max(median(first.burst["present"]), median(first.burst["absent"]))
	fmt.Fprintf(b, "| %s: tools/call p50 ≤ 0.3 ms | back to back: %s (present), %s (absent); each after an rg/grep run: %s, %s | %s back to back |\n", first.label,
		ms(median(first.burst["present"])), ms(median(first.burst["absent"])),
		ms(median(first.ours["present"])), ms(median(first.ours["absent"])), check(small <= 300*time.Microsecond))
	versusRG := func(what string, o, rg time.Duration, limit float64) {
		if rg == 0 {
			fmt.Fprintf(b, "| %s, %s: p50 ≤ %.1f× rg whole process | rg not installed | not measured |\n", last.label, what, limit)
			return
		}
		fmt.Fprintf(b, "| %s, %s: p50 ≤ %.1f× rg whole process | %s vs %s, ratio %s | %s |\n", last.label, what, limit,
			ms(o), ms(rg), ratio(o, rg), check(float64(o) <= limit*float64(rg)))
	}
	versusRG("absent phrase, steady", median(last.ours["absent"]), median(last.rg["absent"]), 0.3)
	versusRG("present rare phrase, steady", median(last.ours["present"]), median(last.rg["present"]), 0.3)
	versusRG("absent phrase of common words", median(last.ours["common"]), median(last.rg["common"]), 1.1)
	versusRG("first call of a fresh server", median(last.first), median(last.firstRG), 1.2)
	rssTargets(b, rows, grow)
}

func maxrssList(rows []row) string {
	var parts []string
	for _, r := range rows {
		parts = append(parts, fmt.Sprintf("%.1f MiB", float64(r.maxrssKiB)/1024))
	}
	return strings.Join(parts, ", ")
}
