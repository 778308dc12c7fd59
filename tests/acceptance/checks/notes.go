package checks

import (
	"path/filepath"
	"slices"
	"strings"
)

// Notes is what judges know of the root's notes: sample-notes.md's N2
// note and the paragraphs of every regular note.
type Notes struct {
	// Roots are the root's absolute path as the server was given it and
	// with symlinks resolved: a reply may name a file by either.
	Roots     []string    `json:"roots"`
	SampleRel string      `json:"sampleRel"`
	N2        []Paragraph `json:"n2"` // the N2 paragraphs holding "sign-in"
	N2Section Paragraph   `json:"n2Section"`
	Paras     []Paragraph `json:"paras"`
	// N2Err says why the N2 passage could not be found in the practice
	// data, which leaves check 1 nothing to grade against.
	N2Err string `json:"n2Err,omitempty"`
}

// RootRel turns a file name from a reply into a root-relative path, or
// reports that it points outside the root.
func (n *Notes) RootRel(f string) (string, bool) {
	f = strings.ReplaceAll(f, `\`, "/")
	var seen []string
	for _, root := range n.Roots {
		if root == "" || slices.Contains(seen, root) {
			continue
		}
		seen = append(seen, root)
		if strings.HasPrefix(f, root+"/") {
			f = strings.TrimPrefix(f, root+"/")
		}
	}
	f = strings.TrimPrefix(f, "./")
	if f == "" || strings.HasPrefix(f, "/") || !filepath.IsLocal(filepath.FromSlash(f)) {
		return "", false
	}
	return filepath.ToSlash(filepath.Clean(f)), true
}

func contains(ss []string, s string) bool { return slices.Contains(ss, s) }

// containsFold reports whether s holds sub in any case.
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
