package generate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/truth"
)

func TestBuildReplays(t *testing.T) {
	if diff := cmp.Diff(Build(7), Build(7)); diff != "" {
		t.Errorf("two builds of seed 7 differ (-first +second):\n%s", diff)
	}
	if cmp.Equal(Build(7).Before, Build(8).Before) {
		t.Errorf("seeds 7 and 8 give the same queries")
	}
}

// shape is what a test asks of one query's true answer.
type shape struct {
	Hits    int // hits every correct server returns
	All     int // hits any correct server may return
	Refusal truth.Refusal
}

func TestBuildAnswers(t *testing.T) {
	for seed := uint64(0); seed < 6; seed++ {
		s := Build(seed)
		want := map[string]shape{
			"passages in one note":                         {4, 4, truth.MustSearch},
			"across a line break":                          {0, 1, truth.MustSearch},
			"across a blank line":                          {0, 0, truth.MustSearch},
			"10 paragraphs":                                {10, 10, truth.MustSearch},
			"11 paragraphs":                                {11, 11, truth.MustSearch},
			"one paragraph in several notes":               {3, 3, truth.MustSearch},
			"lines ending in spaces and tabs":              {1, 1, truth.MustSearch},
			"CRLF":                                         {1, 1, truth.MustSearch},
			"mixed endings":                                {1, 1, truth.MustSearch},
			"U+2028 between words":                         {0, 1, truth.MustSearch},
			"below text whose folding changes length":      {1, 1, truth.MustSearch},
			"ẞ folds with ß":                               {1, 1, truth.MustSearch},
			"outside the BMP":                              {1, 1, truth.MustSearch},
			"invalid UTF-8":                                {0, 1, truth.MustSearch},
			"a note of 102,400 bytes":                      {0, 1, truth.MustSearch},
			"a note of 102,401 bytes":                      {0, 0, truth.MustSearch},
			"notes around an unreadable and a binary note": {5, 5, truth.MustSearch},
			"words only apart":                             {0, 0, truth.MustSearch},
			"absent":                                       {0, 0, truth.MustSearch},
			"200 characters of a":                          {0, 0, truth.MustSearch},
			"201 characters of a":                          {0, 0, truth.MustRefuse},
			"200 characters of é":                          {0, 0, truth.MayRefuse},
			"201 characters of é":                          {0, 0, truth.MustRefuse},
			"200 characters of 🦊":                          {0, 0, truth.MayRefuse},
			"201 characters of 🦊":                          {0, 0, truth.MustRefuse},
		}
		got := map[string]shape{}
		tree := s.Tree()
		for _, q := range s.Before {
			a := truth.Ask(tree, q.Text)
			got[q.From] = shape{len(a.Under(0)), len(a.Hits), a.Refusal}
		}
		more := got["13 paragraphs"]
		for k, v := range got {
			if strings.HasSuffix(k, " paragraphs") && k != "10 paragraphs" && k != "11 paragraphs" {
				more = v
				delete(got, k)
			}
		}
		if more.Hits <= 11 {
			t.Errorf("seed %d: the phrase in more paragraphs has %d hits", seed, more.Hits)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("seed %d: true answers (-want +got):\n%s", seed, diff)
		}
		changed := s.Changed()
		for _, q := range s.After {
			a := truth.Ask(changed, q.Text)
			var files []string
			for _, h := range a.Under(0) {
				files = append(files, h.File)
			}
			if !strings.Contains(strings.Join(files, ","), "added.md") || strings.Contains(strings.Join(files, ","), "one paragraph.md") {
				t.Errorf("seed %d: %s: hits after the changes in %v", seed, q.From, files)
			}
		}
	}
}

func TestPlant(t *testing.T) {
	s := Build(3)
	root := t.TempDir()
	if err := s.Plant(root); err != nil {
		t.Fatal(err)
	}
	for rel, size := range map[string]int64{"limit.md": truth.FileLimit, "over-limit.md": truth.FileLimit + 1} {
		fi, err := os.Stat(filepath.Join(root, rel))
		if err != nil || fi.Size() != size {
			t.Errorf("%s: %v, size %d, want %d", rel, err, fi.Size(), size)
		}
	}
	var unread string
	for _, n := range s.Notes {
		if n.Unreadable {
			unread = n.Rel
		}
	}
	fi, err := os.Stat(filepath.Join(root, unread))
	if err != nil || fi.Mode().Perm() != 0 {
		t.Errorf("%s: %v, mode %v, want 000", unread, err, fi.Mode())
	}
	if err := s.Change(root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, s.Changes.Remove)); !os.IsNotExist(err) {
		t.Errorf("%s still there after the changes: %v", s.Changes.Remove, err)
	}
	got, err := os.ReadFile(filepath.Join(root, s.Changes.Add.Rel))
	if err != nil || string(got) != string(s.Changes.Add.Data) {
		t.Errorf("%s: %v, %q", s.Changes.Add.Rel, err, got)
	}
}
