package checks

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
)

// A transcript is one check's part of a recorded run, as a txtar file: a
// comment naming the check and the server, the JSON-RPC lines each
// exchange sent ("N step.in") and read back ("N step.out", the reply
// last), the other facts its judge reads (facts.json) and the judge's
// verdict (want). Replaying it runs the judge on the recorded facts and
// compares the verdict with want.

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
	Meta []transcriptMeta `json:"exchangeMeta,omitempty"`
}

// EncodeTranscript writes the transcript of check c judged on f, with
// the given comment.
func EncodeTranscript(c *Check, comment string, f *Facts) ([]byte, error) {
	if c.Judge == nil {
		return nil, fmt.Errorf("check %s has no judge of its own yet", c.ID)
	}
	a := &txtar.Archive{Comment: []byte(fmt.Sprintf("check %s: %s\n%s\n", c.ID, c.Title, strings.TrimRight(comment, "\n")))}
	tf := transcriptFacts{Facts: *f}
	tf.Exchanges = nil
	for i, ex := range f.Exchanges {
		if strings.Contains(ex.Step, "/") || strings.ContainsAny(ex.In, "\n") {
			return nil, fmt.Errorf("exchange %q cannot be written as a transcript file", ex.Step)
		}
		name := fmt.Sprintf("%d %s", i+1, ex.Step)
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
		txtar.File{Name: "want", Data: []byte(Render(c.Judge(f)))})
	return txtar.Format(a), nil
}

// DecodeTranscript reads a transcript back: the check id it is of, the
// facts and the verdict it wants.
func DecodeTranscript(data []byte) (id string, f *Facts, want string, err error) {
	a := txtar.Parse(data)
	first, _, _ := strings.Cut(string(a.Comment), "\n")
	id, _, ok := strings.Cut(strings.TrimPrefix(first, "check "), ":")
	if !ok || !strings.HasPrefix(first, "check ") {
		return "", nil, "", fmt.Errorf("the comment does not start with \"check ID:\": %q", first)
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
			fmt.Fprintf(&b, "%s: %s\n", key, strings.ReplaceAll(val, "\n", `\n`))
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
	return b.String()
}

// Status is what the verdict alone makes of its check: fail for any
// failure, warn for warnings only, else pass.
func (v Verdict) Status() string {
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
	return status
}
