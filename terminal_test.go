package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/search"
)

// The hint names the key that ends input on each system.
func TestWaitingHint(t *testing.T) {
	for goos, key := range map[string]string{
		"linux":   "(press Ctrl-D to stop)",
		"darwin":  "(press Ctrl-D to stop)",
		"windows": "(press Ctrl-Z then Enter to stop)",
	} {
		if got := waitingHint(goos); !strings.Contains(got, key) {
			t.Errorf("waitingHint(%q) = %q; want it to say %q", goos, got, key)
		}
	}
}

// Text from notes and names reaches the terminal with every control
// character escaped; the passage is otherwise verbatim.
func TestPrintResult(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  search.Result
		want string
	}{
		{
			name: "plain passage, CRLF line ends",
			res: search.Result{
				Matches: []search.Match{{File: "a.md", NoteID: "N1", Line: 3, Passage: "one\r\ntwo\twith a tab"}},
				Message: `1 passage matched "one".`,
			},
			want: "a.md:3 (N1)\n    one\n    two\twith a tab\n\n1 passage matched \"one\".\n",
		},
		{
			name: "terminal sequences in the passage",
			res: search.Result{
				Matches: []search.Match{{File: "a.md", Line: 1, Passage: "title \x1b]0;pwned\a, clear \x1b[2J, clip \x1b]52;c;ZXZpbA==\x1b\\ over\rwrite \u009b1m \u202erev\u202c"}},
				Message: `1 passage matched "title".`,
			},
			want: "a.md:1\n    title \\x1b]0;pwned\\a, clear \\x1b[2J, clip \\x1b]52;c;ZXZpbA==\\x1b\\ over\\rwrite \\u009b1m \\u202erev\\u202c\n\n1 passage matched \"title\".\n",
		},
		{
			name: "control characters in names, note IDs and reasons",
			res: search.Result{
				Matches: []search.Match{{File: "red\x1b[31m.md", NoteID: "X\x07", Line: 2, Passage: "p", Clipped: true}},
				Message: "1 passage matched \"p\". 2 files were not searched.",
				Skipped: []search.Skipped{
					{File: "new\nline.md", Reason: "symbolic link (not followed)"},
					{File: "tab\t.md", Reason: "bell\a"},
				},
			},
			want: "red\\x1b[31m.md:2 (X\\a) [clipped]\n    p\n\n1 passage matched \"p\". 2 files were not searched.\n" +
				"  not searched: new\\nline.md (symbolic link (not followed))\n  not searched: tab\\t.md (bell\\a)\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			printResult(&b, &tc.res)
			if diff := cmp.Diff(tc.want, b.String()); diff != "" {
				t.Errorf("printResult (-want +got):\n%s", diff)
			}
		})
	}
}

func TestVisibleJSON(t *testing.T) {
	const p = "a\x1b\x7f\u0085\u202e\tb\u200b\u200d\u2028\u2029\u00ad\U000E0041é"
	in, err := json.MarshalIndent(map[string]string{"p": p}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got := string(visibleJSON(in))
	want := "{\n  \"p\": \"a\\u001b\\u007f\\u0085\\u202e\\tb\\u200b\\u200d\\u2028\\u2029\\u00ad\\udb40\\udc41é\"\n}"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("visibleJSON (-want +got):\n%s", diff)
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(got), &back); err != nil || back["p"] != p {
		t.Errorf("visibleJSON changed the meaning: %q, %v", back, err)
	}
}

// Zero-width characters, line and paragraph separators and every
// bidirectional control are escaped; letters, marks, spaces and symbols of
// any script are not.
func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"zero\u200bwidth\u200cnon\u200djoin\u2060word\ufeffbom":                    `zero\u200bwidth\u200cnon\u200djoin\u2060word\ufeffbom`,
		"line\u2028sep\u2029para":                                                  `line\u2028sep\u2029para`,
		"\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069": `\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069`,
		"soft\u00adhyphen, tag\U000E0041":                                          `soft\u00adhyphen, tag\U000e0041`,
		"crème brûlée, Ελληνικά, 日本語, עברית, نص, \u00a0\u3000, 👍":                  "crème brûlée, Ελληνικά, 日本語, עברית, نص, \u00a0\u3000, 👍",
	} {
		if got := visible(in); got != want {
			t.Errorf("visible(%q) = %q; want %q", in, got, want)
		}
	}
}
