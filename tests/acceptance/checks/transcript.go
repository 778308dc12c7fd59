package checks

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"

	"practice-notes/tests/acceptance/visible"
)

// A transcript is one check's part of a recorded run, as a txtar file: a
// comment naming the check (or run-wide rule) and the server, the
// fixture layout it ran on (layout.json: the seed of the fixtures'
// random words, the practice data and the temp folder), the JSON-RPC
// lines each exchange sent ("N step.in") and read back ("N step.out", the
// reply last), the other facts its judge reads (facts.json) and the
// judge's verdict (want). Replaying it runs the judge on the recorded
// facts and compares the verdict with want; the layout rebuilds the
// fixtures themselves. A transcript recorded before layouts were kept
// has no layout.json: its facts.json is all there is, which is all a
// judge reads, and Facts.Layout is nil.

// transcriptMeta is what facts.json holds of each exchange besides its
// lines.
type transcriptMeta struct {
	Step     string `json:"step"`
	Answered bool   `json:"answered,omitempty"` // the last out line is the reply
	Error    string `json:"error,omitempty"`
	TimedOut bool   `json:"timedOut,omitempty"`
	NotSent  bool   `json:"notSent,omitempty"`
	Millis   int64  `json:"ms"`
}

type transcriptFacts struct {
	Facts
	// SignIn is Facts.SignIn with its lines, which the report's JSON of
	// an exchange leaves out.
	SignIn *transcriptExchange `json:"signIn,omitempty"`
	Meta   []transcriptMeta    `json:"exchangeMeta,omitempty"`
}

// transcriptExchange is an exchange as facts.json holds it.
type transcriptExchange struct {
	Step     string   `json:"step"`
	In       string   `json:"in"`
	Out      []string `json:"out,omitempty"`
	Reply    string   `json:"reply,omitempty"`
	Error    string   `json:"error,omitempty"`
	TimedOut bool     `json:"timedOut,omitempty"`
	NotSent  bool     `json:"notSent,omitempty"`
	Millis   int64    `json:"ms"`
}

// EncodeTranscript writes the transcript of check c judged on f, with
// the given comment.
func EncodeTranscript(c *Check, comment string, f *Facts) ([]byte, error) {
	return encode(fmt.Sprintf("check %s: %s", c.ID, c.Title), comment, f, c.Judge)
}

// EncodeRuleTranscript writes the transcript of run-wide rule r judged
// on f; its comment starts "rule NAME:".
func EncodeRuleTranscript(r *Rule, comment string, f *Facts) ([]byte, error) {
	return encode(fmt.Sprintf("rule %s: charged to check %s unless a fixture names its owner", r.Name, r.Owner.ID), comment, f, r.Judge)
}

func encode(title, comment string, f *Facts, judge func(*Facts) Verdict) ([]byte, error) {
	a := &txtar.Archive{Comment: []byte(fmt.Sprintf("%s\n%s\n", title, strings.TrimRight(comment, "\n")))}
	if f.Layout != nil {
		js, err := json.MarshalIndent(f.Layout, "", "  ")
		if err != nil {
			return nil, err
		}
		a.Files = append(a.Files, txtar.File{Name: "layout.json", Data: append(js, '\n')})
	}
	tf := transcriptFacts{Facts: *f}
	tf.Exchanges = nil
	if ex := f.SignIn; ex != nil {
		tf.SignIn = &transcriptExchange{Step: ex.Step, In: ex.In, Out: ex.Out, Reply: ex.Reply, Error: ex.Error, TimedOut: ex.TimedOut, NotSent: ex.NotSent, Millis: ex.Millis}
	}
	for i, ex := range f.Exchanges {
		if strings.Contains(ex.Step, "/") || strings.ContainsAny(ex.In, "\n") {
			return nil, fmt.Errorf("exchange %q cannot be written as a transcript file", ex.Step)
		}
		name := fmt.Sprintf("%d %s", i+1, ex.Step)
		if looksLikeMarker(ex.In) || slices.ContainsFunc(ex.Out, looksLikeMarker) {
			return nil, fmt.Errorf("exchange %q holds a line that reads as a transcript section marker", ex.Step)
		}
		if ex.In != "" {
			a.Files = append(a.Files, txtar.File{Name: name + ".in", Data: []byte(ex.In + "\n")})
		}
		if len(ex.Out) > 0 {
			a.Files = append(a.Files, txtar.File{Name: name + ".out", Data: []byte(strings.Join(ex.Out, "\n") + "\n")})
		}
		tf.Meta = append(tf.Meta, transcriptMeta{Step: ex.Step, Answered: ex.Reply != "", Error: ex.Error, TimedOut: ex.TimedOut, NotSent: ex.NotSent, Millis: ex.Millis})
	}
	js, err := json.MarshalIndent(tf, "", "  ")
	if err != nil {
		return nil, err
	}
	a.Files = append(a.Files,
		txtar.File{Name: "facts.json", Data: append(js, '\n')},
		txtar.File{Name: "want", Data: []byte(Render(judge(f)))})
	return txtar.Format(a), nil
}

// looksLikeMarker reports whether a line would end a txtar section.
func looksLikeMarker(line string) bool {
	return strings.HasPrefix(line, "-- ") && strings.HasSuffix(strings.TrimRight(line, " \r"), " --")
}

// DecodeTranscript reads a transcript back: the check id it is of ("rule
// NAME" for a run-wide rule), the facts and the verdict it wants.
func DecodeTranscript(data []byte) (id string, f *Facts, want string, err error) {
	a := txtar.Parse(data)
	first, _, _ := strings.Cut(string(a.Comment), "\n")
	id, _, ok := strings.Cut(strings.TrimPrefix(first, "check "), ":")
	if !ok || !strings.HasPrefix(first, "check ") && !strings.HasPrefix(first, "rule ") {
		return "", nil, "", fmt.Errorf("the comment does not start with \"check ID:\" or \"rule NAME:\": %q", first)
	}
	files := map[string]string{}
	for _, file := range a.Files {
		files[file.Name] = string(file.Data)
	}
	var tf transcriptFacts
	if err := json.Unmarshal([]byte(files["facts.json"]), &tf); err != nil {
		return "", nil, "", fmt.Errorf("facts.json: %w", err)
	}
	want, ok = files["want"]
	if !ok {
		return "", nil, "", fmt.Errorf("no want section")
	}
	f = &tf.Facts
	if ex := tf.SignIn; ex != nil {
		f.SignIn = &Exchange{Step: ex.Step, In: ex.In, Out: ex.Out, Reply: ex.Reply, Error: ex.Error, TimedOut: ex.TimedOut, NotSent: ex.NotSent, Millis: ex.Millis}
	}
	if js, ok := files["layout.json"]; ok {
		f.Layout = &Layout{}
		if err := json.Unmarshal([]byte(js), f.Layout); err != nil {
			return "", nil, "", fmt.Errorf("layout.json: %w", err)
		}
	}
	for i, m := range tf.Meta {
		name := fmt.Sprintf("%d %s", i+1, m.Step)
		in, ok := files[name+".in"]
		if !ok && !m.NotSent && m.Error == "" {
			// A request that failed may never have reached the wire (the
			// client had dropped the session); any other was sent.
			return "", nil, "", fmt.Errorf("no %q section", name+".in")
		}
		ex := Exchange{Step: m.Step, In: strings.TrimSuffix(in, "\n"), Error: m.Error, TimedOut: m.TimedOut, NotSent: m.NotSent, Millis: m.Millis}
		if out := strings.TrimSuffix(files[name+".out"], "\n"); out != "" {
			ex.Out = strings.Split(out, "\n")
		}
		if m.Answered {
			if len(ex.Out) == 0 {
				return "", nil, "", fmt.Errorf("exchange %q is answered but read nothing", name)
			}
			ex.Reply = ex.Out[len(ex.Out)-1]
		}
		f.Exchanges = append(f.Exchanges, ex)
	}
	return id, f, want, nil
}

// Render writes a verdict as the want section of a transcript: its
// status, then every field that is set, one per line.
func Render(v Verdict) string {
	var b strings.Builder
	fmt.Fprintf(&b, "status: %s\n", v.Status())
	line := func(key, val string) {
		if val != "" {
			fmt.Fprintf(&b, "%s: %s\n", key, escapeControls(val))
		}
	}
	line("summary", v.Summary)
	line("skip", v.Skip)
	for _, n := range v.Notes {
		line("note", n)
	}
	for _, s := range v.Filed {
		line("filed", s)
	}
	for _, o := range v.Observed {
		line("observed", o)
	}
	for _, f := range v.Findings {
		label := "fail"
		if f.Warn {
			label = "warn"
		}
		if f.Owner != nil {
			label += " charged to " + f.Owner.ID
		}
		line(label, f.Msg)
		line("  step", f.Step)
		for _, d := range f.Detail {
			line("  detail", d)
		}
		line("  hint", f.Hint)
	}
	for _, s := range v.Sightings {
		label := "sighting"
		if s.Warn {
			label += " (warn)"
		}
		line(label+" charged to "+s.Owner.ID, s.What+" in "+s.Where)
		if s.During != nil {
			line("  during", s.During.ID)
		}
		line("  key", s.Key)
		line("  step", s.Step)
		line("  line", visible.Clip(s.Line, 300))
		line("  hint", s.Hint)
	}
	return b.String()
}

// escapeControls writes s on one line that shows every control
// character as an escape, so that a server's terminal escapes or line
// breaks never act on the terminal that shows a verdict.
func escapeControls(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t' || r >= 0x20 && r < 0x7f || r > 0x9f && r != utf8.RuneError:
			b.WriteRune(r)
		case r == utf8.RuneError:
			b.WriteString(`\ufffd`)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// Status is what the verdict alone makes of its check: fail for any
// failure, warn for warnings only, else pass.
func (v Verdict) Status() Status {
	status := StatusPass
	if v.Skip != "" {
		status = StatusSkip
	}
	for _, f := range v.Findings {
		if !f.Warn {
			return StatusFail
		}
		status = StatusWarn
	}
	for _, s := range v.Sightings {
		if !s.Warn {
			return StatusFail
		}
		status = StatusWarn
	}
	return status
}
