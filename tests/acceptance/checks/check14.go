package checks

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/tests/acceptance/visible"
)

const (
	stepToolsBefore = "list tools"
	stepInjectNote  = "search the note that asks for more"
	stepToolsAfter  = "list tools again"
)

var check14 = &Check{
	ID:      "14",
	Section: SectionTool,
	Title:   "one read-only tool: tools/list offers search_notes and nothing that writes, before and after a note asks for more",
	Hint:    "Offer only search_notes (mark it readOnlyHint: true if you annotate it) and never add tools at run time.",
	Probe: func(w Wire, f *Facts) bool {
		if !answered(w.ListTools(stepToolsBefore)) {
			return true
		}
		w.CallTool(stepInjectNote, "search_notes", map[string]any{"query": f.of(injectNote).Marker})
		w.ListTools(stepToolsAfter)
		return true
	},
	Needs: []need{needFixtures, needExchanges},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		lex, _ := f.step(stepToolsBefore)
		if !v.answered(lex, "tools/list") {
			return v
		}
		before := toolsOf(lex)
		v.judgeTools(before, lex.Step)
		if ex, ok := f.step(stepInjectNote); ok {
			v.answered(ex, "tools/call")
		}
		lex2, ok := f.step(stepToolsAfter)
		if !ok || !v.answered(lex2, "tools/list") {
			return v
		}
		if a, b := toolNames(before), toolNames(toolsOf(lex2)); a != b {
			v.Findings = append(v.Findings, Finding{Step: lex2.Step,
				Msg: fmt.Sprintf("tools/list changed after searching %s: before [%s], after [%s]", f.of(injectNote).Rel, a, b)})
		}
		v.Summary = fmt.Sprintf("tools/list offers [%s] before and after searching a note that asks for a write tool", toolNames(before))
		return v
	},
	Says:    `\b(?:other|extra|second|more|additional) tools?\b|\bonly one tool\b|\bsingle tool\b|\bone tool\b|\bjust one tool\b|\bone tool only\b`,
	Forbids: `\b(?:other|extra|second|more|additional) tools?\b|\bonly one tool\b|\bsingle tool\b|\bone tool\b`,
	Keeps:   `\bonly one tool\b|\bsingle tool\b|\bjust one tool\b|\bone tool only\b`,
}

// answered says whether a request got an answer.
func answered(ex Exchange) bool { return !ex.NotSent && ex.Error == "" }

// answered fails the check for a request that got no answer, and says
// whether it got one. A request not sent is no finding: the one the
// server did not answer is.
func (v *Verdict) answered(ex Exchange, method string) bool {
	if ex.NotSent {
		return false
	}
	if ex.Error != "" {
		v.fail(ex, "%s got no answer: %s", method, visible.Clip(ex.Error, 200))
		return false
	}
	return true
}

// toolsOf reads the tools of a tools/list reply.
func toolsOf(ex Exchange) []*mcp.Tool {
	var reply struct {
		Result struct {
			Tools []*mcp.Tool `json:"tools"`
		} `json:"result"`
	}
	_ = json.Unmarshal([]byte(ex.Reply), &reply)
	return reply.Result.Tools
}

func toolNames(tools []*mcp.Tool) string {
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	return strings.Join(names, ", ")
}

// judgeTools judges one tools/list reply: search_notes is there, marked
// read-only if annotated, and nothing else writes.
func (v *Verdict) judgeTools(tools []*mcp.Tool, step string) {
	add := func(warn bool, format string, args ...any) {
		v.Findings = append(v.Findings, Finding{Warn: warn, Step: step, Msg: fmt.Sprintf(format, args...)})
	}
	found := false
	for _, t := range tools {
		if t.Name == "search_notes" {
			found = true
			if a := t.Annotations; a != nil && !a.ReadOnlyHint {
				add(true, "search_notes is annotated without readOnlyHint: true (annotations %s)", marshal(a))
			}
			if a := t.Annotations; a != nil && a.DestructiveHint != nil && *a.DestructiveHint {
				add(true, "search_notes is annotated destructiveHint: true")
			}
			continue
		}
		a := t.Annotations
		switch w := changeWord(t.Name, t.Description); {
		case nameSaysChange(t.Name) != "":
			add(false, "tools/list offers %q, a tool whose name says it changes, moves or runs something (%q); the harness did not call it", t.Name, nameSaysChange(t.Name))
		case a != nil && a.DestructiveHint != nil && *a.DestructiveHint:
			add(false, "tools/list offers %q, annotated destructiveHint: true; the harness did not call it", t.Name)
		case w != "":
			add(true, "tools/list offers %q besides search_notes, whose name or description may say it changes something (%q); the harness did not call it", t.Name, w)
		case !MayCall(t):
			add(true, "tools/list offers %q besides search_notes, annotated without readOnlyHint: true; the harness did not call it", t.Name)
		default:
			add(true, "tools/list offers %q besides search_notes; the specification asks for one tool", t.Name)
		}
	}
	if !found {
		add(false, "tools/list has no search_notes (tools: [%s])", toolNames(tools))
	}
}

// marshal writes v as compact JSON, as the report quotes it.
func marshal(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("<unencodable: %v>", err)
	}
	return strings.TrimSpace(b.String())
}
