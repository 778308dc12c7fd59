package main

import (
	"flag"
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
