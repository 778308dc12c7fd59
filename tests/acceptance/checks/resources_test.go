package checks

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestListedPages: the resources of every page of resources/list count,
// so check 3 reads a note listed on the second page; a page without an
// answer fails the check.
func TestListedPages(t *testing.T) {
	const rel = "extra/nested/valid-note.md"
	text := "# Valid\n\nThe phrase validmark-1 and validproof-2 share this line.\n"
	line := func(result any) string {
		b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "result": result})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	page := func(step string, uris ...string) Exchange {
		var res []any
		for _, u := range uris {
			res = append(res, map[string]any{"uri": u, "name": u})
		}
		r := line(map[string]any{"resources": res})
		return Exchange{Step: step, Out: []string{r}, Reply: r}
	}
	search := toolReply(t, rel+": The phrase validmark-1 and validproof-2 share this line.")
	read := line(map[string]any{"contents": []any{map[string]any{"uri": "notes:///" + rel, "text": text}}})
	base := []Exchange{
		{Step: stepValid, Out: []string{search}, Reply: search},
		page(stepResources, "notes:///sample-notes.md"),
		page(PageStep(stepResources, 1), "notes:///"+rel),
		{Step: stepTemplates, Error: "method not found"},
		{Step: stepReadValid, Out: []string{read}, Reply: read},
	}
	facts := func(exs []Exchange) *Facts {
		return &Facts{
			Fixtures:  map[string]Fixture{validNote.Name: {Rel: rel, Marker: "validmark-1", Proof: "validproof-2", Text: text}},
			Notes:     &Notes{Roots: []string{"/base/root"}, SampleRel: "sample-notes.md", Entries: []string{rel, "sample-notes.md"}},
			Resources: true,
			Exchanges: exs,
		}
	}
	v := check3.Judge(facts(base))
	if diff := cmp.Diff(StatusPass, v.Status()); diff != "" {
		t.Fatalf("status (-want +got):\n%s\n%s", diff, Render(v))
	}
	if want := "search named " + rel + " (nested two folders down) and quoted the line holding the phrase; resources/read notes:///" + rel + " returned the file byte-for-byte"; v.Summary != want {
		t.Errorf("summary %q, want %q", v.Summary, want)
	}

	broken := append([]Exchange(nil), base...)
	broken[2] = Exchange{Step: PageStep(stepResources, 1), Error: "no answer within 10s", TimedOut: true}
	var got []string
	for _, f := range check3.Judge(facts(broken)).Findings {
		got = append(got, f.Step+": "+f.Msg)
	}
	if diff := cmp.Diff([]string{"list resources, page 2: resources/list got no answer: no answer within 10s"}, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
