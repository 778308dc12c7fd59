package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNormalize feeds two runs' texts through their normalizers: what
// legitimately varies must come out equal, and any other change must not.
func TestNormalize(t *testing.T) {
	tests := []struct {
		name      string
		base      []string
		head      []string
		wantEqual bool
	}{
		{"dates and times of day",
			[]string{`run on 2026-12-07 05:26 UTC, "date": "2026-12-07T05:26:26.936538816Z", mtime 05:26:27.123456789`},
			[]string{`run on 2026-12-08 11:02 UTC, "date": "2026-12-08T11:02:01.5Z", mtime 11:02:01.987654321`},
			true},
		{"durations and millisecond fields",
			[]string{`handshake in 18 ms; exited after 1.5s, then 2m3.25s; "exitAfterMs": 3, "ms": 0`},
			[]string{`handshake in 162 ms; exited after 850µs, then 4s; "exitAfterMs": 12, "ms": 7`},
			true},
		{"temp folders and stderr sizes",
			[]string{`/tmp/practice-notes-acceptance-717429757/root; stderr had 63 bytes`},
			[]string{`/tmp/practice-notes-acceptance-1656394597/root; stderr had 65 bytes`},
			true},
		{"tokens renamed consistently, across files and in upper case",
			[]string{"absentphrase-204974403c9b and CRÈME-B4A1D1D8", "again 204974403c9b, crème-b4a1d1d8"},
			[]string{"absentphrase-3c750699b903 and CRÈME-6D9ECCD0", "again 3c750699b903, crème-6d9eccd0"},
			true},
		{"an upper-cased token of digits only",
			[]string{"CRÈME-B4A1D1D8 written crème-b4a1d1d8"},
			[]string{"CRÈME-12345678 written crème-12345678"},
			true},
		{"a token recurring where its counterpart does not",
			[]string{"mark-204974403c9b then 204974403c9b"},
			[]string{"mark-3c750699b903 then a1b2c3d4e5f6"},
			false},
		{"a text cut after a time of another width",
			[]string{`| exit 0 in 3 ms; stdout of this process: 3 JSON-RPC l… |`},
			[]string{`| exit 0 in 12 ms; stdout of this process: 3 JSON-RPC … |`},
			true},
		{"a token cut short",
			[]string{`"query":"absentphrase-204…"`},
			[]string{`"query":"absentphrase-3c75…"`},
			true},
		{"a hex word both runs wrote is a constant: its change shows",
			[]string{"memory 1073741824, limit 1073741824"},
			[]string{"memory 1073741824, limit 2147483648"},
			false},
		{"one word of a summary",
			[]string{"the reply holds sample-notes.md lines 14-16 byte for byte"},
			[]string{"the reply holds sample-notes.md lines 14-16 bit for byte"},
			false},
		{"a count",
			[]string{"3 searches returned no outside byte"},
			[]string{"2 searches returned no outside byte"},
			false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nb, nh := newNormalizers(tt.base, tt.head)
			var gotBase, gotHead []string
			for _, s := range tt.base {
				gotBase = append(gotBase, nb.normalize(s))
			}
			for _, s := range tt.head {
				gotHead = append(gotHead, nh.normalize(s))
			}
			diff := cmp.Diff(gotBase, gotHead)
			if tt.wantEqual && diff != "" {
				t.Errorf("normalized texts differ (-base +head):\n%s", diff)
			}
			if !tt.wantEqual && diff == "" {
				t.Errorf("normalized texts are equal, want a difference: %q", gotBase)
			}
		})
	}
}

// TestSharedWordsStay: a hex word both runs wrote (a size, a hash of a
// fixed file) is kept as written, so its change shows; only the others
// are renamed.
func TestSharedWordsStay(t *testing.T) {
	nb, nh := newNormalizers([]string{"memory 1073741824, token 204974403c9b"}, []string{"memory 1073741824, token 3c750699b903"})
	want := "memory 1073741824, token <hex1>"
	for _, got := range []string{nb.normalize("memory 1073741824, token 204974403c9b"), nh.normalize("memory 1073741824, token 3c750699b903")} {
		if got != want {
			t.Errorf("normalized to %q, want %q", got, want)
		}
	}
}

// TestRun normalizes two folders into a third, file by file, a file only
// one run wrote reading as empty in the other.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	files := map[string]map[string]string{
		"base": {"a.md": "token 204974403c9b\n", "b.json": `{"t": "204974403c9b"}`},
		"head": {"a.md": "token 3c750699b903\n", "c.txt": "only here\n"},
	}
	for side, fs := range files {
		if err := os.MkdirAll(filepath.Join(dir, "in", side), 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range fs {
			if err := os.WriteFile(filepath.Join(dir, "in", side, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := run(filepath.Join(dir, "in", "base"), filepath.Join(dir, "in", "head"), filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{
		"base": {"a.md": "token <hex1>\n", "b.json": `{"t": "<hex1>"}`, "c.txt": ""},
		"head": {"a.md": "token <hex1>\n", "b.json": "", "c.txt": "only here\n"},
	}
	got := map[string]map[string]string{}
	for side := range want {
		got[side] = map[string]string{}
		entries, err := os.ReadDir(filepath.Join(dir, "out", side))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(dir, "out", side, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			got[side][e.Name()] = string(b)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("normalized files (-want +got):\n%s", diff)
	}
}
