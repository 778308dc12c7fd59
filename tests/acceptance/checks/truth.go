package checks

import (
	"fmt"
	"strings"

	"practice-notes/tests/acceptance/truth"
)

// answer returns the true answer to query, when the harness computed one.
func (f *Facts) answer(query string) (*truth.Answer, bool) {
	a, ok := f.Truth[query]
	return a, ok && a != nil
}

// required returns the hits of a that every correct server returns: those
// the specification leaves no room to leave out.
func required(a *truth.Answer) []truth.Hit {
	var out []truth.Hit
	for _, h := range a.Hits {
		if h.Room == 0 {
			out = append(out, h)
		}
	}
	return out
}

// missed lists the hits of a every correct server returns that the
// reading does not present. A hit is presented when a string of the reply
// holds its paragraph (with or without its CRs: whether a passage is exact
// is another rule's business), or, when the reply holds no paragraph of
// the hit's file that is a hit, when it names the file. A reading that
// holds truth.MaxPassages results or passages may leave any hit out, so
// it misses none.
func missed(rd *Reading, a *truth.Answer) []truth.Hit {
	if len(rd.Results) >= truth.MaxPassages || len(rd.Items) >= truth.MaxPassages || len(rd.Quoted) >= truth.MaxPassages {
		return nil
	}
	quotesFile := map[string]bool{}
	for _, h := range a.Hits {
		if holds(rd, h) {
			quotesFile[h.File] = true
		}
	}
	var out []truth.Hit
	for _, h := range required(a) {
		if !holds(rd, h) && (quotesFile[h.File] || !names(rd, h.File)) {
			out = append(out, h)
		}
	}
	return out
}

// names reports whether a reading names the file rel. It reads names
// leniently (a leading "/" or "./", any folder before the root-relative
// name, the name anywhere in a string of the reply): a name taken for a
// hit here can only spare a server a miss, never charge it one.
func names(rd *Reading, rel string) bool {
	for _, r := range rd.Results {
		n := strings.TrimPrefix(cleanName(r), "/")
		if n == rel || strings.HasSuffix(n, "/"+rel) {
			return true
		}
	}
	for _, s := range rd.Strings {
		if strings.Contains(s, rel) {
			return true
		}
	}
	return false
}

// holds reports whether a string of the reading holds h's paragraph in
// one of the forms truth.Forms allows (quoted, indented), with or without
// its CRs.
func holds(rd *Reading, h truth.Hit) bool {
	for _, t := range append([]string{h.Text}, h.Forms...) {
		t = strings.TrimSpace(t)
		for _, form := range truth.Forms(t) {
			bare := strings.ReplaceAll(form, "\r", "")
			for _, s := range rd.Strings {
				if strings.Contains(s, form) || strings.Contains(strings.ReplaceAll(s, "\r", ""), bare) {
					return true
				}
			}
		}
	}
	return false
}

// hitList names hits for a finding: file and line, bounded.
func hitList(hs []truth.Hit) string {
	var parts []string
	for i, h := range hs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(hs)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%s line %d", h.File, h.Line))
	}
	return strings.Join(parts, ", ")
}

// presented names the files a reading presents as results or whose
// paragraphs it quotes, for a reply whose true answer is empty. A result
// whose passage its file does not hold is left out: an invented passage
// is check 2's rule, whatever the query.
func (f *Facts) presented(rd *Reading) []string {
	var out []string
	genuine := func(name string) bool {
		if f.Notes == nil {
			return true
		}
		rel, ok := f.Notes.RootRel(name)
		if !ok {
			return true
		}
		content, readable := f.Notes.Files[rel]
		return !readable || !invented(rd, name, content)
	}
	for _, r := range rd.Results {
		if genuine(r) {
			out = AppendNew(out, r)
		}
	}
	for _, p := range rd.Quoted {
		out = AppendNew(out, p.File)
	}
	for _, it := range rd.Items {
		if it.Passage != "" && it.File != "" && genuine(it.File) {
			out = AppendNew(out, it.File)
		}
	}
	return out
}
