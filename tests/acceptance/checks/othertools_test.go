package checks

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// toolWire answers every request and records which tools each probe
// called; it offers one path tool and one more argument of it.
type toolWire struct{ called map[string]bool }

func (w *toolWire) Send(step, line, _ string) Exchange {
	return Exchange{Step: step, In: line, NotSent: true, Error: "not sent"}
}

func (w *toolWire) ListTools(step string) Exchange {
	return Exchange{Step: step, Reply: `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`}
}

func (w *toolWire) CallTool(step, name string, _ map[string]any, _ ...string) Exchange {
	w.called[name] = true
	return Exchange{Step: step, Reply: `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`}
}

func (w *toolWire) PathTools() []PathTool { return []PathTool{{Name: "read_note", Arg: "path"}} }

func (w *toolWire) ToolArgs() []ToolArg {
	return []ToolArg{{Tool: "search_notes", Arg: "folder"}, {Tool: "read_note", Arg: "encoding"}}
}

func (w *toolWire) ListResources(step string) []Exchange {
	return []Exchange{{Step: step, Reply: `{"jsonrpc":"2.0","id":1,"result":{"resources":[]}}`}}
}

func (w *toolWire) ListTemplates(step string) Exchange {
	return Exchange{Step: step, Reply: `{"jsonrpc":"2.0","id":1,"result":{"resourceTemplates":[]}}`}
}

func (w *toolWire) ReadResource(step, _ string, _ ...string) Exchange {
	return Exchange{Step: step, Error: "refused"}
}

// TestOtherToolsInTheirOwnProcess: a check's Probe, which runs among the
// search checks, calls no tool but search_notes; its calls to the other
// tools are in its Tools probe, which the harness runs in a process of
// its own after them.
func TestOtherToolsInTheirOwnProcess(t *testing.T) {
	var inProbe, inTools []string
	for _, c := range All() {
		f := &Facts{Resources: true}
		if c.Probe != nil {
			w := &toolWire{called: map[string]bool{}}
			c.Probe(w, f)
			delete(w.called, "search_notes")
			if len(w.called) > 0 {
				inProbe = append(inProbe, c.ID)
			}
		}
		if c.Tools != nil {
			w := &toolWire{called: map[string]bool{}}
			c.Tools(w, f)
			if !w.called["read_note"] {
				t.Errorf("check %s has a Tools probe that does not call the path tool", c.ID)
			}
			if w.called["search_notes"] {
				t.Errorf("check %s's Tools probe calls search_notes, which belongs among the search checks", c.ID)
			}
			inTools = append(inTools, c.ID)
		}
	}
	if diff := cmp.Diff([]string(nil), inProbe); diff != "" {
		t.Errorf("checks whose Probe calls other tools (-want +got):\n%s", diff)
	}
	sort.Strings(inTools)
	if diff := cmp.Diff([]string{"13", "17", "18", "19", "3", "4", "5"}, inTools); diff != "" {
		t.Errorf("checks with a Tools probe (-want +got):\n%s", diff)
	}
}
