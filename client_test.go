package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/search"
)

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
	in, err := json.MarshalIndent(map[string]string{"p": "a\x1b\x7f\u0085\u202e\tb"}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got := string(visibleJSON(in))
	want := "{\n  \"p\": \"a\\u001b\\u007f\\u0085\\u202e\\tb\"\n}"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("visibleJSON (-want +got):\n%s", diff)
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(got), &back); err != nil || back["p"] != "a\x1b\x7f\u0085\u202e\tb" {
		t.Errorf("visibleJSON changed the meaning: %q, %v", back, err)
	}
}

// rawControl reports the first byte sequence a terminal would act on, other
// than the newlines and tabs of the layout.
func rawControl(s string) (rune, bool) {
	for _, r := range s {
		if r != '\n' && r != '\t' && needsEscape(r) {
			return r, true
		}
	}
	return 0, false
}

// The search command, run for real on a note and a file name holding
// terminal sequences, prints none of them raw, in text or in -json.
func TestSearchCommandEscapes(t *testing.T) {
	root := t.TempDir()
	note := "## T1 \x1b]0;pwned\a title\n\nmarker \x1b[2J clear \x1b]52;c;ZXZpbA==\a clip\r over \u009b csi \u202e rtl\n"
	if err := os.WriteFile(filepath.Join(root, "note.md"), []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	wants := []string{"marker \\x1b[2J clear \\x1b]52;c;ZXZpbA==\\a clip\\r over \\u009b csi \\u202e rtl"}
	// Windows does not allow control characters in file names.
	if runtime.GOOS != "windows" {
		if err := os.WriteFile(filepath.Join(root, "bad\x1b[31mname.md"), []byte("marker in a bad name\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		wants = append(wants, "bad\\x1b[31mname.md:1")
	}
	out, errOut, code := runCmd(t, nil, "search", "-root", root, "marker")
	if r, ok := rawControl(out + errOut); code != 0 || ok {
		t.Errorf("search: exit %d, raw %U in the output:\n%s%s", code, r, out, errOut)
	}
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("search output lacks %q:\n%s", want, out)
		}
	}
	out, errOut, code = runCmd(t, nil, "search", "-json", "-root", root, "marker")
	var res map[string]any
	if r, ok := rawControl(out + errOut); code != 0 || ok || json.Unmarshal([]byte(out), &res) != nil {
		t.Errorf("search -json: exit %d, raw %U, output not one JSON value:\n%s%s", code, r, out, errOut)
	}
}

// A refused query is one clear line on stderr, with no log line of the
// server's, and exit status 1.
func TestSearchRefusedOneLine(t *testing.T) {
	for _, tc := range []struct{ query, want string }{
		{"", "practice-notes: search refused: invalid query: query is empty\n"},
		{"a\x1bb", "practice-notes: search refused: invalid query: query contains control character U+001B; use plain text and spaces\n"},
	} {
		out, errOut, code := runCmd(t, nil, "search", tc.query)
		if code != 1 || out != "" || errOut != tc.want {
			t.Errorf("search %q: exit %d, stdout %q, stderr %q; want exit 1 and stderr %q", tc.query, code, out, errOut, tc.want)
		}
	}
}

// Files that were not searched are named in words, one per line.
func TestSearchCommandNotSearched(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.md"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.md", filepath.Join(root, "link.md")); err != nil {
		t.Skipf("cannot make a symbolic link here, so there is nothing to skip: %v", err)
	}
	out, errOut, code := runCmd(t, nil, "search", "-root", root, "alpha")
	want := "a.md:1\n    alpha\n\n1 passage matched \"alpha\". 1 file was not searched.\n  not searched: link.md (symbolic link (not followed))\n"
	if diff := cmp.Diff(want, out); code != 0 || diff != "" {
		t.Errorf("search: exit %d, stderr %q, stdout (-want +got):\n%s", code, errOut, diff)
	}
}
