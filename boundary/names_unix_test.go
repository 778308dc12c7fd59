//go:build unix

package boundary

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
)

// One name rule for walks and reads: a name the kernel cannot open whole
// (4,096 bytes or more), or one that is not valid UTF-8, is not a note. It
// is skipped by the walk with the reason, shown so that it cannot be taken
// for a note really named with U+FFFD, and refused by a read the same way,
// on both open paths; the longest name the kernel opens is a note like any
// other.
func TestNameRuleKernelLimits(t *testing.T) {
	rootDir := t.TempDir()
	// The names are too long for a path from /, so the tree is made one
	// directory at a time, as the walk lists it.
	made, err := os.OpenRoot(rootDir)
	if err != nil {
		t.Fatal(err)
	}
	defer made.Close()
	dirs := strings.TrimSuffix(strings.Repeat(strings.Repeat("d", 250)+"/", MaxDepth), "/")
	longest := dirs + "/" + strings.Repeat("n", maxNameBytes-len(dirs)-1-len(".md")) + ".md"
	tooLong := dirs + "/" + strings.Repeat("n", maxNameBytes-len(dirs)-len(".md")) + ".md"
	if len(longest) != maxNameBytes || len(tooLong) != maxNameBytes+1 {
		t.Fatalf("names of %d and %d bytes", len(longest), len(tooLong))
	}
	files := map[string]string{
		longest:          "the longest name the kernel opens\n",
		tooLong:          "one byte too long\n",
		"\xff.md":        "the phrase, under a name that is not UTF-8\n",
		"\xfe.md":        "the phrase again\n",
		"\xffdir/in.md":  "below a directory whose name is not UTF-8\n",
		"\uFFFD.md":      "a note really named U+FFFD\n",
		"sub/ok\xe9.txt": "Latin-1, not UTF-8\n",
	}
	for name, text := range files {
		if err := made.MkdirAll(path.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := made.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatalf("writing a %d-byte name: %v", len(name), err)
		}
	}

	r := open(t, rootDir)
	ctx := context.Background()
	listing, err := r.Walk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(listing), []string{longest, "\uFFFD.md"}; !slices.Equal(got, want) {
		short := make([]string, len(got))
		for i, name := range got {
			short[i] = fmt.Sprintf("%.20q (%d bytes)", name, len(name))
		}
		t.Errorf("Walk lists %s; want the longest name and %q", short, "\uFFFD.md")
	}
	skipped := map[string]error{}
	for _, s := range listing.Skipped {
		skipped[s.Name] = s.Reason
	}
	for name, want := range map[string]error{
		tooLong:          errNameTooLong,
		`\xff.md`:        errNameNotUTF8,
		`\xfe.md`:        errNameNotUTF8,
		`\xffdir`:        errNameNotUTF8,
		`sub/ok\xe9.txt`: errNameNotUTF8,
	} {
		if skipped[name] != want {
			t.Errorf("Walk skipped %.40q with %v; want %v", name, skipped[name], want)
		}
	}
	if len(listing.Skipped) != 5 {
		t.Errorf("Walk skipped %d entries; want 5: %v", len(listing.Skipped), listing.Skipped)
	}
	eachOpenPath(t, r, func(t *testing.T) {
		for name, want := range map[string]error{
			longest:         nil,
			"\uFFFD.md":     nil,
			tooLong:         errNameTooLong,
			"\xff.md":       errNameNotUTF8,
			"\xfe.md":       errNameNotUTF8,
			"\xffdir/in.md": errNameNotUTF8,
		} {
			data, err := r.ReadNote(ctx, name)
			switch {
			case want == nil && (err != nil || string(data) != files[name]):
				t.Errorf("ReadNote(a %d-byte name) = %q, %v; want its text", len(name), data, err)
			case want != nil && (!errors.Is(err, want) || data != nil):
				t.Errorf("ReadNote(a %d-byte name %.20q) = %q, %v; want %v", len(name), name, data, err, want)
			}
		}
	})
	for _, name := range []string{strings.Repeat("e", maxElemBytes+1) + ".md", "a/" + strings.Repeat("e", maxElemBytes-2) + ".md/b.md"} {
		if err := checkName(name); !errors.Is(err, errNameTooLong) {
			t.Errorf("checkName(an element of %d bytes) = %v; want %v", maxElemBytes+1, err, errNameTooLong)
		}
	}
}
