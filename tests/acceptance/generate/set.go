package generate

import (
	"fmt"
	"slices"
	"strings"

	"practice-notes/tests/acceptance/truth"
)

// Note is one file of a set.
type Note struct {
	Rel  string // root-relative, slash-separated
	Data []byte
	// Unreadable notes are planted with mode 000.
	Unreadable bool
}

// Query is one search to send, and what it is drawn from (for the
// report only: judges ask the truth).
type Query struct {
	Text string
	From string
}

// Changes are made to the root between Before's searches and After's.
type Changes struct {
	Edit   Note   // a note given new text
	Add    Note   // a note that was not there
	Remove string // a note removed
}

// Set is one generated root and its searches.
type Set struct {
	Seed  uint64
	Notes []Note
	// Before are searched first, After once Changes are made.
	Before, After []Query
	Changes       Changes
}

// Walk positions of the unreadable and binary notes among the notes that
// hold the walk phrase.
var positions = []string{"first", "middle", "last"}

// Build returns the set of seed.
func Build(seed uint64) Set {
	b := &builder{w: newWords(seed), s: Set{Seed: seed}}
	w := b.w
	// The cases draw their words in this order: a seed makes the same set.
	p, a1, l2 := b.passages()
	b.counts(seed)
	b.duplicates()
	b.endings()
	b.folding()
	b.limits()
	b.walk(seed)

	// Words only apart, an absent phrase, and the query limit.
	b.ask("words only apart", a1+" "+l2)
	b.ask("absent", w.phrase())
	for _, c := range []string{"a", "é", "🦊"} {
		b.ask("200 characters of "+c, strings.Repeat(c, truth.MaxQuery))
		b.ask("201 characters of "+c, strings.Repeat(c, truth.MaxQuery+1))
	}

	// Changes between the searches.
	fresh := w.phrase()
	b.s.Changes = Changes{
		Edit:   Note{Rel: "paragraphs.md", Data: []byte(fmt.Sprintf("# Edited\n\nNow %s %s.\n", p, w.filler(2)))},
		Add:    Note{Rel: "added.md", Data: []byte(fmt.Sprintf("Added %s and %s.\n", p, fresh))},
		Remove: "one paragraph.md",
	}
	b.s.After = []Query{{Text: p, From: "after a note was edited, one added and one removed"}, {Text: fresh, From: "a note added"}}
	slices.SortFunc(b.s.Notes, func(a, b Note) int { return strings.Compare(a.Rel, b.Rel) })
	return b.s
}

// builder collects a Set's notes and queries as Build draws their words.
type builder struct {
	w *words
	s Set
}

func (b *builder) add(rel, text string) {
	b.s.Notes = append(b.s.Notes, Note{Rel: rel, Data: []byte(text)})
}

func (b *builder) ask(from, q string) { b.s.Before = append(b.s.Before, Query{Text: q, From: from}) }

// passages writes several passages in one note, a note of one paragraph
// with no final newline, and phrases across a line break and a blank
// line; it returns the phrase, a word of the last passage and the
// second word of the line-break phrase, which later cases reuse.
func (b *builder) passages() (p, a1, l2 string) {
	w := b.w
	// Several passages in one note, and a note of one paragraph with no
	// final newline.
	p = w.phrase()
	a1 = w.word()
	b.add("paragraphs.md", fmt.Sprintf("# %s\n\nFirst %s %s.\n\n%s\n\nMiddle %s\n%s %s.\n\n%s\n\nLast %s %s.\n",
		w.filler(2), p, w.filler(3), w.filler(5), w.filler(2), p, w.filler(2), w.filler(4), p, a1))
	b.add("one paragraph.md", fmt.Sprintf("Alone %s %s, no final newline.", p, w.filler(2)))
	b.ask("passages in one note", p)
	// Across a line break inside a paragraph (found) and across a blank
	// line (not found).
	var l1, b1, b2 string
	l1, l2, b1, b2 = w.word(), w.word(), w.word(), w.word()
	b.add("wrapped.md", fmt.Sprintf("%s %s\n%s %s.\n\n%s %s\n\n%s %s.\n", w.filler(2), l1, l2, w.filler(2), w.filler(2), b1, b2, w.filler(2)))
	b.ask("across a line break", l1+" "+l2)
	b.ask("across a blank line", b1+" "+b2)
	return p, a1, l2
}

// counts writes a phrase in exactly 10, in 11 and in more paragraphs,
// over notes of several folders.
func (b *builder) counts(seed uint64) {
	w := b.w
	// A phrase in exactly 10, in 11 and in more paragraphs, over notes of
	// several folders.
	for _, n := range []int{10, 11, 10 + 3 + int(seed%5)} {
		q := w.phrase()
		for i := range n {
			rel := fmt.Sprintf("count-%d/part-%d.md", n, i%3)
			if i%3 == 2 {
				rel = fmt.Sprintf("count-%d/sub/part-%d.md", n, i%3)
			}
			appendTo(&b.s, rel, fmt.Sprintf("Line %d: %s %s.\n\n", i, q, w.filler(2)))
		}
		b.ask(fmt.Sprintf("%d paragraphs", n), q)
	}
}

// duplicates writes one paragraph into several notes.
func (b *builder) duplicates() {
	w := b.w
	// One paragraph in several notes.
	dup := w.phrase()
	same := fmt.Sprintf("The same %s paragraph %s.\n", dup, w.filler(2))
	for _, rel := range []string{"same-a.md", "nested/same-b.md", "same-c.md"} {
		b.add(rel, "# "+w.filler(2)+"\n\n"+same)
	}
	b.ask("one paragraph in several notes", dup)
}

// endings writes lines ending in white space, CRLF, mixed endings and a
// line separator.
func (b *builder) endings() {
	w := b.w
	// White space and line endings.
	tr := w.phrase()
	b.add("trailing.md", fmt.Sprintf("# %s\n\nHard break %s  \nthen a tab\t\nand %s.\n", w.filler(1), tr, w.filler(2)))
	b.ask("lines ending in spaces and tabs", tr)
	cr, mx, ls1, ls2 := w.phrase(), w.phrase(), w.word(), w.word()
	b.add("crlf.md", strings.ReplaceAll(fmt.Sprintf("# %s\n\nWindows %s\nwith %s.\n\n%s\n", w.filler(1), cr, w.filler(2), w.filler(3)), "\n", "\r\n"))
	b.add("mixed.md", fmt.Sprintf("# %s\r\n\nMixed %s\r\nline %s\nends.\r\n\r\nA %s\u2028%s separator.\n", w.filler(1), mx, w.filler(1), ls1, ls2))
	b.ask("CRLF", cr)
	b.ask("mixed endings", mx)
	b.ask("U+2028 between words", ls1+" "+ls2)
}

// folding writes text whose case folding changes its length, and text
// outside the BMP.
func (b *builder) folding() {
	w := b.w
	// Folding that changes length, above the paragraph a query finds,
	// and text outside the BMP.
	fl := w.phrase()
	b.add("folding.md", fmt.Sprintf("# %s\n\nİİİİ \u212A\u212A\u212A STRAẞE ßß ﬁﬁ %s.\n\nBelow the letters %s %s.\n\nAfter %s.\n", w.filler(1), w.filler(1), fl, w.filler(1), w.filler(2)))
	b.ask("below text whose folding changes length", strings.ToUpper(fl))
	b.ask("ẞ folds with ß", "straße")
	emoji := "🦊 " + w.word()
	b.add("astral.md", fmt.Sprintf("# %s\n\nThe %s and 𝔘𝔫𝔦 %s.\n", w.filler(1), emoji, w.filler(2)))
	b.ask("outside the BMP", emoji)
}

// limits writes a note that is not UTF-8 (without a NUL) and notes at
// and over the size limit.
func (b *builder) limits() {
	w := b.w
	// Not UTF-8, without a NUL; and files at the size limit.
	enc := w.phrase()
	b.add("latin1.md", fmt.Sprintf("# %s\n\nCaf\xe9 %s cr\xe8me.\n", w.filler(1), enc))
	b.ask("invalid UTF-8", enc)
	lim, over := w.phrase(), w.phrase()
	b.add("limit.md", sized(truth.FileLimit, "At the limit "+lim+".\n"))
	b.add("over-limit.md", sized(truth.FileLimit+1, "Over the limit "+over+".\n"))
	b.ask("a note of 102,400 bytes", lim)
	b.ask("a note of 102,401 bytes", over)
}

// walk writes notes that share a phrase, an unreadable and a binary note
// among them, nested folders, names with spaces and non-ASCII.
func (b *builder) walk(seed uint64) {
	w := b.w
	// The walk: notes holding one phrase, an unreadable and a binary
	// note among them, nested folders, names with spaces and non-ASCII.
	walk := w.phrase()
	// A note in a folder after walk/ follows the unreadable and binary
	// notes wherever they are in it.
	walkNotes := []string{"walk/b note.md", "walk/d/deeper/e.md", "walk/f-ünïcödé.md", "walk/h.md", "zz-after/note.md"}
	for _, rel := range walkNotes {
		b.add(rel, fmt.Sprintf("%s %s.\n", walk, w.filler(2)))
	}
	unread := placeIn(positions[seed%3], "unreadable")
	// Never at the same place: a hit note between the two tells which
	// one a server stopped at.
	binary := placeIn(positions[(seed+1+(seed/3)%2)%3], "binary")
	b.s.Notes = append(b.s.Notes, Note{Rel: unread, Data: []byte(walk + " locked.\n"), Unreadable: true})
	b.add(binary, walk+"\x00\xff\xfe binary.\n")
	b.ask("notes around an unreadable and a binary note", walk)
}

// placeIn names a note of the walk folder that sorts first, among the
// others or last.
func placeIn(where, what string) string {
	switch where {
	case "first":
		return "walk/a-" + what + ".md"
	case "middle":
		return "walk/g-" + what + ".md"
	}
	return "walk/z-" + what + ".md"
}

// appendTo adds text to the note rel, creating it.
func appendTo(s *Set, rel, text string) {
	for i := range s.Notes {
		if s.Notes[i].Rel == rel {
			s.Notes[i].Data = append(s.Notes[i].Data, text...)
			return
		}
	}
	s.Notes = append(s.Notes, Note{Rel: rel, Data: []byte(text)})
}

// sized returns a note of exactly n bytes that ends with last: a few long
// paragraphs of a four-byte character (few runes and paragraphs for the
// bytes, so that the truth and the reading go through it fast), then last.
func sized(n int, last string) string {
	var b strings.Builder
	para := strings.Repeat(strings.Repeat("𝔵", 15)+"\n", 63) + "\n"
	for b.Len()+len(para)+len(last)+1 <= n {
		b.WriteString(para)
	}
	b.WriteString(strings.Repeat("y", n-b.Len()-len(last)-1))
	b.WriteString("\n" + last)
	return b.String()
}

// Tree describes the root as planted, before the changes.
func (s Set) Tree() truth.Tree {
	t := truth.Tree{}
	for _, n := range s.Notes {
		e := truth.Entry{Kind: truth.Regular, Data: n.Data, Unreadable: n.Unreadable}
		if n.Unreadable {
			e.Data = nil // no server can read it, whoever plants it
		}
		t[n.Rel] = e
	}
	return t
}

// Changed describes the root once the changes are made.
func (s Set) Changed() truth.Tree {
	t := s.Tree()
	t[s.Changes.Edit.Rel] = truth.Entry{Kind: truth.Regular, Data: s.Changes.Edit.Data}
	t[s.Changes.Add.Rel] = truth.Entry{Kind: truth.Regular, Data: s.Changes.Add.Data}
	delete(t, s.Changes.Remove)
	return t
}
