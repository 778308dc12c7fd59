package checks

import (
	"path/filepath"
	"slices"
	"strings"

	"practice-notes/tests/acceptance/truth"
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
	// Files holds the content of the root's regular files that replies
	// named as results, by root-relative path; a file missing here could
	// not be read (or is a link).
	Files map[string]string `json:"files,omitempty"`
	// Links are the symlink and hard-link fixtures inside the root:
	// naming one as a result is its own check's business.
	Links []Link `json:"links,omitempty"`
	// N2Err says why the N2 passage could not be found in the practice
	// data, which leaves check 1 nothing to grade against.
	N2Err string `json:"n2Err,omitempty"`
	// Entries are the root-relative paths of everything in the root, and
	// Taken those that also exist on the machine as "/"+path: what
	// reading a name ("/a.md", a URI's path) asks of the file system,
	// recorded so that judges stay pure.
	Entries []string `json:"entries,omitempty"`
	Taken   []string `json:"taken,omitempty"`
}

// RootRel turns a file name from a reply into a root-relative path, or
// reports that it resolves outside the root (or names no path). Every
// name a judge reads goes through here, and through truth.Resolve: "a.md",
// "./a.md", "a\b.md", "/a.md" for a root note a.md, file:// URIs and URIs
// of any scheme whose path ends in a root-relative name.
func (n *Notes) RootRel(f string) (string, bool) {
	var roots []string
	for _, r := range n.Roots {
		if r != "" && !slices.Contains(roots, r) {
			roots = append(roots, filepath.ToSlash(r))
		}
	}
	pl, ok := truth.Resolve(f, roots, n.exists)
	if !ok || !pl.Inside || pl.Rel == "." {
		return "", false
	}
	return pl.Rel, true
}

// exists answers truth.Resolve from what was recorded of the machine.
func (n *Notes) exists(p string) bool {
	for _, r := range n.Roots {
		r = filepath.ToSlash(r)
		if rel, ok := strings.CutPrefix(p, strings.TrimSuffix(r, "/")+"/"); ok && r != "" {
			return slices.Contains(n.Entries, rel)
		}
	}
	return slices.Contains(n.Taken, strings.TrimPrefix(p, "/"))
}

func contains(ss []string, s string) bool { return slices.Contains(ss, s) }

// containsFold reports whether s holds sub in any case.
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// Link is a link fixture inside the root.
type Link struct {
	Rel string `json:"rel"`
	Dir bool   `json:"dir,omitempty"` // paths through it count too
	// Hard marks a hard link, which names an outside file's own bytes.
	Hard bool `json:"hard,omitempty"`
}

// link reports whether a root-relative name is or goes through a link.
func (n *Notes) link(rel string) bool {
	rel = strings.TrimPrefix(filepath.ToSlash(rel), "./")
	for _, ln := range n.Links {
		if rel == ln.Rel || (ln.Dir && strings.HasPrefix(rel, ln.Rel+"/")) {
			return true
		}
	}
	return false
}

// unrelated lists the files a reply names as results that do not hold
// want (case-insensitively; every file when want is empty), and the root
// paragraphs it quotes that do not.
func (n *Notes) unrelated(rd *Reading, want string) (files, paras []string) {
	for _, f := range rd.Results {
		rel, ok := n.RootRel(f)
		if !ok {
			continue // outside the root: check 4's rule
		}
		if n.link(rel) {
			continue // a link: its own check's rule
		}
		content, readable := n.Files[rel]
		if readable && invented(rd, f, content) {
			continue // a passage the file does not hold: check 2's rule
		}
		if strings.TrimSpace(want) == "" || !readable || !containsFold(content, want) {
			files = append(files, f)
		}
	}
	for _, p := range rd.Quoted {
		if strings.TrimSpace(want) == "" || !containsFold(p.Text, want) {
			paras = append(paras, p.Text)
		}
	}
	return files, paras
}

// invented reports whether the reply credits file with a passage that
// is not in its content.
func invented(rd *Reading, file, content string) bool {
	for _, it := range rd.Items {
		if it.File == file && len(it.Passage) >= 12 && !containsFold(content, strings.Trim(it.Passage, "…. \t\r\n")) {
			return true
		}
	}
	return false
}
