package diagnose

import (
	"bytes"
	"slices"
	"strings"

	"practice-notes/tests/acceptance/truth"
)

// Reply is what one search reply presents, set against the true answer by
// the judge that read it (the judge's reading decides what a reply
// presents; this package only names the shape of the difference).
type Reply struct {
	Query string
	// Found are the true hits the reply presents; Missed the hits every
	// correct server returns that it does not present.
	Found, Missed []truth.Hit
	// Extra are the root-relative files the reply names as results that
	// hold no hit.
	Extra []string
	// Inexact are hits whose file the reply names but whose paragraph no
	// string of it holds byte for byte.
	Inexact []truth.Hit
	// Strings are every string the reply carries.
	Strings []string
	// Shown is what the server showed it does right in its other replies.
	Shown Shown
}

// Shown is what a server's replies show it does right, which rules out
// a diagnosis that one reply alone allows.
type Shown struct {
	// FoldsCase: it found a hit that lowercasing does not find.
	FoldsCase bool
	// SearchesLast: it found the last paragraph of a note that no blank
	// line follows (a blank line would end it in a loop with no flush).
	SearchesLast bool
	// SecondPassages: it found two passages of one note in one reply.
	SecondPassages bool
	// Finds: it found a hit at all; FindsNested, one in a subfolder.
	Finds, FindsNested bool
}

// Learn gathers what the replies of one server show it does right.
func Learn(root Root, replies []Reply) Shown {
	var s Shown
	for _, r := range replies {
		for _, h := range r.Found {
			s.FoldsCase = s.FoldsCase || !lowerFinds(h.Text, r.Query)
			s.SearchesLast = s.SearchesLast || endsNote(root.Now, h.File, h.Text)
			s.SecondPassages = s.SecondPassages || foundBefore(r.Found, h)
			s.Finds = true
			s.FindsNested = s.FindsNested || strings.Contains(h.File, "/")
		}
	}
	return s
}

// Or is what s and o together show.
func (s Shown) Or(o Shown) Shown {
	return Shown{FoldsCase: s.FoldsCase || o.FoldsCase, SearchesLast: s.SearchesLast || o.SearchesLast,
		SecondPassages: s.SecondPassages || o.SecondPassages, Finds: s.Finds || o.Finds, FindsNested: s.FindsNested || o.FindsNested}
}

// Root is the root as it was when the reply was given, and Before as it
// was when the server started, when notes changed in between (nil when
// none did).
type Root struct {
	Now, Before truth.Tree
}

// Classify names the mistakes the reply shows: one for its missing hits,
// one for each extra file and one for each inexact passage, in that order.
func Classify(root Root, r Reply) []Diagnosis {
	var out []Diagnosis
	if len(r.Missed) > 0 {
		out = append(out, missing(root, r))
	}
	for _, f := range r.Extra {
		out = append(out, extra(root, r.Query, f))
	}
	for _, h := range r.Inexact {
		out = append(out, diagnosis(Passage(root.Now, h, r.Strings), h.File))
	}
	return merge(out)
}

// merge folds diagnoses of one mistake into one, their files together.
func merge(ds []Diagnosis) []Diagnosis {
	var out []Diagnosis
	for _, d := range ds {
		i := slices.IndexFunc(out, func(o Diagnosis) bool { return o.Mistake == d.Mistake })
		if i < 0 {
			out = append(out, d)
			continue
		}
		for _, f := range d.Files {
			if !slices.Contains(out[i].Files, f) {
				out[i].Files = append(out[i].Files, f)
			}
		}
	}
	return out
}

// missing names why r.Missed are missing, from where they sit: the
// first shape every missed hit fits, most specific first.
func missing(root Root, r Reply) Diagnosis {
	files := hitFiles(r.Missed)
	// A server that never showed it searches a last paragraph may miss
	// an added note's only paragraph, or every one-paragraph note after
	// a blocker, for that reason alone.
	lastOnly := !r.Shown.SearchesLast && every(r.Missed, func(h truth.Hit) bool { return isLast(root.Now, h.File, h.Text) })
	if root.Before != nil && !lastOnly && every(r.Missed, func(h truth.Hit) bool { _, ok := root.Before[h.File]; return !ok }) {
		return diagnosis(AddedNote, files...)
	}
	if every(r.Missed, func(h truth.Hit) bool { return strings.Contains(h.File, "/") }) &&
		every(r.Found, func(h truth.Hit) bool { return !strings.Contains(h.File, "/") }) &&
		!r.Shown.FindsNested && (len(r.Found) > 0 || r.Shown.Finds) {
		return diagnosis(Subfolders, files...)
	}
	for _, b := range blockers(root.Now) {
		if !lastOnly && every(r.Missed, func(h truth.Hit) bool { return walkBefore(b.file, h.File) }) &&
			every(r.Found, func(h truth.Hit) bool { return walkBefore(h.File, b.file) }) &&
			(len(r.Found) > 0 || r.Shown.Finds || firstInWalk(root.Now, b.file)) {
			return diagnosis(b.mistake, append([]string{b.file}, files...)...)
		}
	}
	if every(r.Missed, func(h truth.Hit) bool {
		return slices.ContainsFunc(r.Found, func(f truth.Hit) bool { return f.File != h.File && f.Text == h.Text })
	}) {
		return diagnosis(SameText, files...)
	}
	unfolded := every(r.Missed, func(h truth.Hit) bool { return !lowerFinds(h.Text, r.Query) })
	if unfolded && !r.Shown.FoldsCase {
		return diagnosis(CaseFold, files...)
	}
	// A note with two hits leaves both open; a last paragraph found, or
	// a second passage found, rules one out.
	switch {
	case lastOnly:
		return diagnosis(LastParagraph, files...)
	case !r.Shown.SecondPassages && every(r.Missed, func(h truth.Hit) bool { return foundBefore(r.Found, h) }):
		return diagnosis(LaterPassages, files...)
	}
	switch {
	case every(r.Missed, func(h truth.Hit) bool { return !writtenFinds(h.Text, r.Query) && asciiFinds(h.Text, r.Query) }):
		return diagnosis(CaseSensitive, files...)
	case every(r.Missed, func(h truth.Hit) bool { return !asciiFinds(h.Text, r.Query) }):
		return diagnosis(CaseFold, files...)
	}
	return diagnosis(Missed, files...)
}

// foundBefore reports whether a hit of h's file above h was found.
func foundBefore(found []truth.Hit, h truth.Hit) bool {
	return slices.ContainsFunc(found, func(f truth.Hit) bool { return f.File == h.File && f.StartLine < h.StartLine })
}

// firstInWalk reports whether no regular file comes before name.
func firstInWalk(t truth.Tree, name string) bool {
	for n, e := range t {
		if e.Kind == truth.Regular && walkBefore(n, name) {
			return false
		}
	}
	return true
}

// extra names why file came back though it holds no hit.
func extra(root Root, query, file string) Diagnosis {
	e, ok := root.Now[file]
	if !ok {
		return diagnosis(Invented, file)
	}
	if bytes.IndexByte(e.Data, 0) >= 0 {
		return diagnosis(BinaryNamed, file)
	}
	if len(e.Data) > truth.FileLimit {
		return diagnosis(Oversized, file)
	}
	phrase := fold(query)
	if phrase != "" && strings.Contains(fold(string(e.Data)), phrase) {
		return diagnosis(AcrossBlank, file)
	}
	words := strings.Fields(phrase)
	body := fold(string(e.Data))
	if len(words) > 1 && every(words, func(w string) bool { return strings.Contains(body, w) }) {
		return diagnosis(WordsApart, file)
	}
	return diagnosis(Invented, file)
}

func hitFiles(hs []truth.Hit) []string {
	var out []string
	for _, h := range hs {
		if !slices.Contains(out, h.File) {
			out = append(out, h.File)
		}
	}
	return out
}

func every[T any](xs []T, ok func(T) bool) bool {
	for _, x := range xs {
		if !ok(x) {
			return false
		}
	}
	return true
}
