package script

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	linkRe    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	headingRe = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	slugDrop  = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
)

// slug is the anchor GitHub gives a heading.
func slug(heading string) string {
	s := strings.ToLower(strings.TrimSpace(heading))
	s = slugDrop.ReplaceAllString(s, "")
	return strings.ReplaceAll(s, " ", "-")
}

// outsideFences is the Markdown text outside fenced blocks, whose links
// and headings are the document's own (inside are outputs shown).
func outsideFences(md string) string {
	fence := ""
	var text strings.Builder
	for _, l := range strings.Split(md, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case fence == "" && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")):
			fence = t[:3]
		case fence != "" && strings.HasPrefix(t, fence):
			fence = ""
		case fence == "":
			text.WriteString(l + "\n")
		}
	}
	return text.String()
}

// anchors lists the headings of a Markdown file as anchors.
func anchors(md string) map[string]bool {
	out := map[string]bool{}
	for _, m := range headingRe.FindAllStringSubmatch(outsideFences(md), -1) {
		out[slug(m[1])] = true
	}
	return out
}

// TestDocLinks: every relative link in README.md, SECURITY.md and
// docs/*.md names a file of the repository and, with #anchor, a heading
// of it, so that moving a section from one document to another cannot
// leave a link behind.
func TestDocLinks(t *testing.T) {
	files := append(docFiles(t), "SECURITY.md")
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(repo, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range linkRe.FindAllStringSubmatch(outsideFences(string(b)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			file := f
			if path != "" {
				file = filepath.Join(filepath.Dir(f), filepath.FromSlash(path))
			}
			tb, err := os.ReadFile(filepath.Join(repo, file))
			if err != nil {
				if fi, serr := os.Stat(filepath.Join(repo, file)); serr == nil && fi.IsDir() && anchor == "" {
					continue
				}
				t.Errorf("%s links to %s: %v", f, target, err)
				continue
			}
			if anchor != "" && strings.HasSuffix(file, ".md") && !anchors(string(tb))[anchor] {
				t.Errorf("%s links to %s: %s has no heading with the anchor %q", f, target, file, anchor)
			}
		}
	}
}
