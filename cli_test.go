package main

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFlagsFirst(t *testing.T) {
	for _, tc := range []struct {
		args, want []string
	}{
		{[]string{"sign-in"}, []string{"--", "sign-in"}},
		{[]string{"sign-in", "-root", "/x"}, []string{"-root", "/x", "--", "sign-in"}},
		{[]string{"-json", "sign-in", "in", "--root=/x"}, []string{"-json", "--root=/x", "--", "sign-in", "in"}},
		// A boolean flag takes no separate value.
		{[]string{"a", "-json", "b"}, []string{"-json", "--", "a", "b"}},
		// After "--" everything is an argument, even what looks like a flag.
		{[]string{"-root", "/x", "--", "-json", "-root"}, []string{"-root", "/x", "--", "-json", "-root"}},
		// A flag's value may look like a flag or like "--".
		{[]string{"-root", "--", "q"}, []string{"-root", "--", "--", "q"}},
		// "-" alone is an argument; an unknown flag is left for Parse to refuse.
		{[]string{"-", "-nope", "q"}, []string{"-nope", "--", "-", "q"}},
		{[]string{"-root"}, []string{"-root", "--"}},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.String("root", "", "")
		fs.Bool("json", false, "")
		if diff := cmp.Diff(tc.want, flagsFirst(fs, tc.args)); diff != "" {
			t.Errorf("flagsFirst(%q) (-want +got):\n%s", tc.args, diff)
		}
	}
}

// A flag after the query is honoured, never searched for; a flag the
// command does not have is refused with its usage line.
func TestFlagsAnywhere(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	for _, tc := range []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string // substring; "" means stdout must be empty
		wantStderr string // substring
	}{
		{"root after the query", []string{"search", "sign-in", "-root", missing}, 1, "", "does not exist"},
		{"root after the query, present", []string{"search", "sign-in", "-root", "practice-data"}, 0, "sample-notes.md:14 (N2)", ""},
		{"json after the query", []string{"search", "sign-in", "-json"}, 0, `"structuredContent"`, ""},
		{"query starting with a dash", []string{"search", "--", "-root"}, 0, `No notes matched "-root".`, ""},
		{"unknown flag after the query", []string{"search", "sign-in", "-rooot", "x"}, 2, "", "usage: practice-notes search [-root DIR] [-json] QUERY"},
		{"tools with an argument", []string{"tools", "extra", "-root", "practice-data"}, 2, "", "usage: practice-notes tools [-root DIR]"},
		{"config flag after the client", []string{"config", "-client", "vscode", "-root", missing}, 1, "", "does not exist"},
		{"serve with an unknown flag", []string{"serve", "-root", "practice-data", "-verbose"}, 2, "", "usage: practice-notes serve"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCmd(t, nil, tc.args...)
			if code != tc.wantCode ||
				(tc.wantStdout == "") != (out == "") || !strings.Contains(out, tc.wantStdout) ||
				!strings.Contains(errOut, tc.wantStderr) {
				t.Errorf("%q: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", tc.args, code, tc.wantCode, out, errOut)
			}
		})
	}
}
