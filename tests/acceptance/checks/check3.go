package checks

import (
	"fmt"
	"path"
	"strings"

	"practice-notes/tests/acceptance/visible"
)

// Steps of check 3.
const (
	stepValid     = "the nested note's phrase"
	stepResources = "list resources"
	stepTemplates = "list resource templates"
	stepReadValid = "read the nested note"
)

// validNote is a note two folders down in the root, its proof word on
// the marker's own line so that a server returning one line still shows
// it. Its Text is read again from the root whenever facts are taken.
var validNote = &Plant{Name: "valid note", Make: func(g *Ground) (Fixture, error) {
	f := Fixture{Rel: "extra/nested/valid-note.md", Marker: "validmark-" + g.Token(5), Proof: "validproof" + g.Token(6)}
	spread, err := g.Plant(spreadPhrase)
	if err != nil {
		return f, err
	}
	f.Text = fmt.Sprintf("# Valid fixture note\n\nThe phrase %s and the proof word %s share this line,\nand the paragraph goes on for a second line.\n\nThe word %s is in several notes.\n",
		f.Marker, f.Proof, spread.Marker)
	return f, g.Write(g.Root, f.Rel, f.Text)
}}

var check3 = &Check{
	ID:       "3",
	Section:  SectionAcceptance,
	Title:    "a valid file inside the root is readable",
	Fixtures: []*Plant{validNote},
	Hint:     "Search every regular .md file under the root, including subdirectories, and name the file each passage came from.",
	// Searches the nested note's phrase; if the server offers resources,
	// reads the note through a URI the server itself offered, never a
	// guessed one; and, in the process of other tools, sends its name to
	// every path tool the harness may call.
	Probe: func(w Wire, f *Facts) bool {
		valid := f.of(validNote)
		ex := search(w, stepValid, valid.Marker)
		if !answered(ex) || !f.Resources {
			return true
		}
		list, ok := listedAll(w.ListResources(stepResources))
		if !ok {
			return true
		}
		templates := w.ListTemplates(stepTemplates)
		if uri, _ := offeredURI(valid.Rel, list, templatesOf(templates), toolResult(ex)); uri != "" {
			w.ReadResource(stepReadValid, uri)
		}
		return true
	},
	Tools: func(w Wire, f *Facts) bool {
		probePaths(w, []string{f.of(validNote).Rel})
		return true
	},
	Needs: []need{needFixtures, needPathTools, needResources, needNotes, needExchanges, needTimeLimit},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		valid := f.of(validNote)
		ex, _ := f.step(stepValid)
		if !v.got(ex, "tools/call") {
			return v
		}
		rd := f.read(ex, valid.Marker)
		named := rd.Names(valid.Rel) || rd.Names(path.Base(valid.Rel))
		switch {
		case rd.IsError:
			v.fail(ex, "isError reply: %q", visible.Clip(FirstText(toolResult(ex)), 160))
		case !named && rd.Quotes(valid.Proof):
			// The nested file was found: what is missing is its name.
			v.Findings = append(v.Findings, Finding{Step: ex.Step,
				Msg:  fmt.Sprintf("the reply quotes the line of %s but does not name the file as a result (results: %v)", valid.Rel, rd.Results),
				Hint: "Name the file each passage came from, by its path relative to the root (" + valid.Rel + ")."})
		case !named:
			v.fail(ex, "the reply does not name %s as a result (results: %v)", valid.Rel, rd.Results)
		case !rd.Quotes(valid.Proof):
			v.Summary = fmt.Sprintf("search named %s (nested two folders down) as a result", valid.Rel)
			v.Notes = append(v.Notes, fmt.Sprintf("the reply does not quote the proof word that follows the phrase on its line (%s)", valid.Proof))
		default:
			v.Summary = fmt.Sprintf("search named %s (nested two folders down) and quoted the line holding the phrase", valid.Rel)
		}
		v.judgePaths(f, []string{valid.Rel})
		if !f.Resources {
			v.Notes = append(v.Notes, "no path-taking surface offered: the server did not advertise resources, so the file was read through search_notes only")
			return v
		}
		list, _, ok := v.listed(f, stepResources)
		if !ok {
			return v
		}
		tex, _ := f.step(stepTemplates)
		uri, from := offeredURI(valid.Rel, list, templatesOf(tex), toolResult(ex))
		if uri == "" {
			// A URI the server never offered proves nothing about it: the
			// file is then read through search_notes only, as for a server
			// without resources.
			v.Notes = append(v.Notes, fmt.Sprintf("the server offered no URI for %s (resources/list named %d resources, and no template or link in a reply gave one), so the file was read through search_notes only", valid.Rel, len(list)))
			return v
		}
		v.Notes = append(v.Notes, "the resource URI was taken from "+from)
		rex, _ := f.step(stepReadValid)
		if !v.got(rex, "resources/read") {
			return v
		}
		body := resourceText(rex)
		switch {
		case body == valid.Text:
			v.Summary += fmt.Sprintf("; resources/read %s returned the file byte-for-byte", uri)
		case strings.Contains(body, valid.Proof):
			v.Summary += fmt.Sprintf("; resources/read %s returned the fixture text", uri)
			v.Notes = append(v.Notes, fmt.Sprintf("resources/read content differs from the file bytes (%d vs %d bytes)", len(body), len(valid.Text)))
		default:
			v.Findings = append(v.Findings, Finding{Step: rex.Step, Msg: fmt.Sprintf("resources/read %s did not return the file's text", uri),
				Hint: "Answer resources/read of a URI you offer with that file's text, byte for byte."})
		}
		return v
	},
	Test: 3,
	Says: `\bvalid file\b|\bread a (?:valid )?file\b|\binside (?:practice-data|the root|the folder)\b|\bfile inside\b|\barchivo valido\b|\bfichier valide\b|\bgultige datei\b|\barquivo valido\b|\bfile valido\b|\bgeldig bestand\b|\bpoprawny plik\b`,
}
