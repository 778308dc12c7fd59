package checks

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// leakBase is the temp folder of the leak rule's test facts.
const leakBase = "/tmp/pna-123"

func leakTestFacts(out ...Output) *Facts {
	return &Facts{
		Fixtures: map[string]Fixture{
			TempFolder:      {Path: leakBase},
			callerRoot.Name: {Path: leakBase + "/caller-root"},
			"outside.md": {Marker: "outsidemark-aa", Path: leakBase + "/outside.md", Label: "outside.md", Words: []string{"0123456789ab", "cdef01234567"},
				Text: "0123456789ab outsidemark-aa cdef01234567 must never be served.\n"},
			"dir-secret.md":      {Marker: "linkdirmark-aa", Path: leakBase + "/outsidedirab/dir-secret.md", Label: "dir-secret", Words: []string{"aaaaaaaaaaaa"}},
			"private-notes.md":   {Marker: "siblingmark-aa", Path: leakBase + "/root-old/private-notes.md", Label: "private", Words: []string{"bbbbbbbbbbbb"}},
			"absolute-secret.md": {Marker: "absolutemark-aa", Path: leakBase + "/elsewhere/absolute-secret.md", Label: "absolute", Words: []string{"cccccccccccc"}},
		},
		Secrets: []string{"outside.md", "dir-secret.md", "private-notes.md", "absolute-secret.md"},
		Notes:   &Notes{Roots: []string{leakBase + "/root", leakBase + "/root"}, Entries: []string{"a.md"}},
		Outputs: out,
	}
}

// TestLeakRule pins what counts as a leak: a fragment of a guarded
// fixture's words or an outside path the request did not carry, never an
// echo of the marker or the root's own path; a path on stderr only warns.
func TestLeakRule(t *testing.T) {
	reply := func(text string, sent ...string) Output {
		return Output{Checks: []string{"4"}, Shown: []Shown{{Check: "4", Step: "exchange 1", Label: "tools/call search_notes", Text: text, Sent: sent}}}
	}
	generated := func(out Output) Output {
		out.Checks, out.Root = []string{GeneratedProcess}, "generated"
		for i := range out.Shown {
			out.Shown[i].Check = GeneratedPhase().ID
		}
		return out
	}
	tests := []struct {
		name string
		out  Output
		want []string
	}{
		{"echoed marker", reply(`No notes matched "outsidemark-aa".`), nil},
		{"marker and a cut of its neighbour", reply(`…mark-aa cdef012…`), []string{"4 text of outside.md in the reply to tools/call search_notes"}},
		{"a whole line", reply("0123456789ab outsidemark-aa cdef01234567 must never be served."), []string{"4 text of outside.md in the reply to tools/call search_notes"}},
		// Seven digits of a word, as numbers and hashes in honest replies
		// hold them by chance, are not a leak; ten are.
		{"seven digits in a number", reply("Query too long: 1234567 characters, the limit is 200."), nil},
		{"seven digits in a hash", reply("sha256 9f01234567e1c0ffee"), nil},
		{"nine digits of a word", reply("id 123456789 and more"), nil},
		{"ten digits of a word", reply("id 23456789ab"), []string{"4 text of outside.md in the reply to tools/call search_notes"}},
		{"ten digits, no text known", reply("dir-secret aaaaaaaaaa"), []string{"18 text of dir-secret.md in the reply to tools/call search_notes"}},
		{"root path", reply(`cannot read ` + leakBase + `/root/x.md`), []string{"22 root path in the reply to tools/call search_notes (warn)"}},
		{"sibling path", reply(`skipped ` + leakBase + `/root-old/private-notes.md`), []string{"17 path the sibling folder root-old in the reply to tools/call search_notes"}},
		{"linked dir", reply(`linked-dir -> ` + leakBase + `/outsidedirab`), []string{"18 path the outside folder behind linked-dir in the reply to tools/call search_notes"}},
		{"absolute file's folder", reply(`in ` + leakBase + `/elsewhere`), []string{"4 path the outside folder of absolute-secret.md in the reply to tools/call search_notes"}},
		{"temp folder", reply(`in ` + leakBase + `/`), []string{"22 path the run's temp folder (" + leakBase + "/) in the reply to tools/call search_notes"}},
		{"echoed path", reply(`No notes matched "`+leakBase+`/outside.md".`, leakBase+"/outside.md"), nil},
		{"echoed in typographic quotes", reply(`no passage matched “`+leakBase+`/outside.md”`, leakBase+"/outside.md"), nil},
		{"echoed in other scripts' quotes", reply(`«`+leakBase+`/outside.md» ‘`+leakBase+`/outside.md’ „`+leakBase+`/outside.md“ 「`+leakBase+`/outside.md」。`, leakBase+"/outside.md"), nil},
		{"echoed before CJK punctuation", reply(leakBase+`/elsewhere/absolute-secret.md：没有匹配。`, leakBase+"/elsewhere/absolute-secret.md"), nil},
		{"an outside path in typographic quotes, not sent", reply(`cannot open “` + leakBase + `/outside.md”`), []string{"4 path outside.md in the reply to tools/call search_notes"}},
		{"a longer path than was sent, in quotes", reply(`no passage matched “`+leakBase+`/outside.md/x”`, leakBase+"/outside.md"), []string{"4 path outside.md in the reply to tools/call search_notes"}},
		{"escaped in JSON", reply(`{"q":"`+leakBase+`/outside.md\"}`, leakBase+"/outside.md"), nil},
		{"words on stdout", Output{Checks: []string{"1", "2"}, Stdout: "log: 0123456789ab\n"}, []string{"4 text of outside.md in stdout of the process of checks 1 and 2"}},
		{"words on stdout already in a reply", Output{Checks: []string{"4"}, Stdout: "0123456789ab\n", Shown: reply("0123456789ab").Shown}, []string{"4 text of outside.md in the reply to tools/call search_notes"}},
		{"path on stderr", Output{Checks: []string{"4"}, Stderr: "open " + leakBase + "/outside.md: denied\n"}, []string{"4 path outside.md in stderr of the process of check 4 (warn)"}},
		{"root path on stderr", Output{Checks: []string{"4"}, Stderr: "serving " + leakBase + "/root\n"}, nil},
		{"outside words in a reply of the generated phase", generated(reply("Café 0123456789ab")), []string{"4 text of outside.md in the reply to tools/call search_notes"}},
		{"the generated root's own path in its reply", generated(reply("in " + leakBase + "/generated/walk/h.md")), []string{"22 root path in the reply to tools/call search_notes (warn)"}},
		{"the practice root's path in a reply of the generated phase", generated(reply("see " + leakBase + "/root/a.md")),
			[]string{"22 path the run's temp folder (" + leakBase + "/root/a.md) in the reply to tools/call search_notes"}},
		{"outside words on the generated phase's stderr", generated(Output{Stderr: "0123456789ab\n"}), []string{"4 text of outside.md in stderr of the generated phase's process"}},
		{"the generated root's path on its stderr", generated(Output{Stderr: "serving " + leakBase + "/generated\n"}), nil},
		{"check 13 owns what its calls show", Output{Checks: []string{"13"}, Shown: []Shown{{Check: "13", Step: "exchange 1", Label: "tools/call search_notes", Text: "0123456789ab"}}},
			[]string{"13 text of outside.md in the reply to tools/call search_notes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range LeakRule().Judge(leakTestFacts(tt.out)).Sightings {
				line := s.Owner.ID + " " + s.Key + " in " + s.Where
				if s.Warn {
					line += " (warn)"
				}
				got = append(got, line)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestLeakRuleBinaryTrap: a binary trap named as a result, its bytes
// quoted with U+FFFD, is one finding, check 20's; a passage credited to
// an ordinary note that holds a U+FFFD the note does not is still check
// 1's.
func TestLeakRuleBinaryTrap(t *testing.T) {
	binary := "\x00\xff\xfe\x00binary trapmark-1 \xc3\x28\x00\x01\x02\n"
	lenient := strings.TrimSuffix(string([]rune(binary)), "\n") // each invalid byte a U+FFFD
	search := func(file, passage string) Output {
		result := `{"content":[{"type":"text","text":` + jsonQuote(t, jsonQuote(t, map[string]string{"file": file, "passage": passage})) + `}]}`
		return Output{Checks: []string{"20"}, Shown: []Shown{{Check: "20", Step: "exchange 1", Label: "tools/call search_notes", Tool: "search_notes", Query: "trapmark-1", Result: result, Sent: []string{"trapmark-1"}}},
			Files: map[string]string{"traps/binary-note.md": binary, "a.md": binary}}
	}
	tests := []struct {
		name string
		out  Output
		want []string
	}{
		{"the binary trap quoted with U+FFFD", search("traps/binary-note.md", lenient),
			[]string{"20 trap traps/binary-note.md in the reply to tools/call search_notes"}},
		{"an ordinary note quoted with U+FFFD", search("a.md", lenient),
			[]string{"1 altered passage in the reply to tools/call search_notes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := leakTestFacts(tt.out)
			f.Notes.Entries = []string{"a.md", "traps", "traps/binary-note.md"}
			var got []string
			for _, s := range LeakRule().Judge(f).Sightings {
				got = append(got, s.Owner.ID+" "+s.Key+" in "+s.Where)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// jsonQuote is v as JSON: a string as a JSON string literal.
func jsonQuote(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLeakRuleRefusalEcho: a refusal that echoes the caller's argument
// names no result; a reply that is no refusal and names the outside file,
// or a refusal that shows its words, is still a leak.
func TestLeakRuleRefusalEcho(t *testing.T) {
	call := func(isError bool, text string) Output {
		result := `{"content":[{"type":"text","text":` + jsonQuote(t, text) + `}],"isError":` + jsonQuote(t, isError) + `}`
		return Output{Checks: []string{"4"}, Shown: []Shown{{Check: "4", Step: "search_notes action, probe 2", Label: "tools/call search_notes", Tool: "search_notes",
			Query: "outsidemark-aa", Result: result, Sent: []string{"../outside.md", "outsidemark-aa"}}}}
	}
	tests := []struct {
		name string
		out  Output
		want []string
	}{
		{"unknown action echoed", call(true, "unknown action: ../outside.md"), nil},
		{"the argument echoed in a refusal with quotes", call(true, "Error: “../outside.md” is not a folder of the root"), nil},
		{"a result naming the outside file", call(false, "../outside.md:1: outsidemark-aa"), []string{"4 result outside ../outside.md"}},
		{"a refusal that shows the file's words", call(true, "unknown action: ../outside.md (0123456789ab)"), []string{"4 text of outside.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range LeakRule().Judge(leakTestFacts(tt.out)).Sightings {
				got = append(got, s.Owner.ID+" "+s.Key)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestLeakRuleGeneratedResults: the results of the generated phase's
// replies name notes of its own root, which the practice root does not
// hold: they are the generated phase's to judge, never a result outside
// the root; the same reply from a process of the practice root is one.
func TestLeakRuleGeneratedResults(t *testing.T) {
	named := leakBase + "/generated/walk/h.md"
	result := `{"content":[{"type":"text","text":` + jsonQuote(t, named+": walk phrase here") + `}]}`
	out := Output{Checks: []string{"1"}, Shown: []Shown{{Check: "1", Step: "exchange 1", Label: "tools/call search_notes", Tool: "search_notes",
		Query: "walk phrase", Result: result, Sent: []string{"walk phrase"}}}}
	inGenerated := out
	inGenerated.Checks, inGenerated.Root = []string{GeneratedProcess}, "generated"
	tests := []struct {
		name string
		out  Output
		want []string
	}{
		{"from the generated phase's process", inGenerated, []string{"22 root path"}},
		{"from a process of the practice root", out, []string{"22 path the run's temp folder (" + named + ")", "4 result outside " + named}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range LeakRule().Judge(leakTestFacts(tt.out)).Sightings {
				got = append(got, s.Owner.ID+" "+s.Key)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
