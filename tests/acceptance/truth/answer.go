package truth

import (
	"bytes"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Refusal says whether a server may refuse a query.
type Refusal uint8

// The refusals.
const (
	// MustSearch: the query is valid by every reading.
	MustSearch Refusal = iota
	// MayRefuse: a server may refuse the query or search it (its length
	// is over the limit by one count only, it holds control characters,
	// or it is blank).
	MayRefuse
	// MustRefuse: the query is longer than 200 characters by every count;
	// it must be refused with a bounded error, and has no hit.
	MustRefuse
)

// Hit is one paragraph that holds the phrase.
type Hit struct {
	File string // root-relative, slash-separated
	// Text is the paragraph, byte for byte as in the file.
	Text string
	// Forms are other texts that are as right as Text for this hit: the
	// paragraph split at blank lines only, where a heading line touches
	// it, the first paragraph with the note's byte-order mark, and the
	// part of the paragraph that holds the phrase for a reader that ends
	// paragraphs at a line of white space alone (a form feed, U+2028
	// twice, a lone CR twice).
	Forms []string
	// StartLine is the 1-based line the paragraph starts on; Line the one
	// its first occurrence of the phrase starts on. Lines end at LF.
	StartLine, Line int
	// Room is the least room the hit needs: none for a hit every correct
	// server returns.
	Room Room
	// occs holds every occurrence of the phrase in the paragraph, with the
	// room it needs, the file's own room included.
	occs []occurrence
}

// Under reports whether a server that takes the room p returns h.
func (h Hit) Under(p Room) bool { return h.lineUnder(p) > 0 }

// lineUnder returns the line of the first occurrence a server taking the
// room p finds, or 0 when it finds none.
func (h Hit) lineUnder(p Room) int {
	for _, o := range h.occs {
		if o.room&^p == 0 {
			return o.line
		}
	}
	return 0
}

// Answer is the true answer to one query.
type Answer struct {
	Query   string
	Refusal Refusal
	// Hits is every hit, by file (byte order of the name) then position.
	// A reply holds at most MaxPassages of them.
	Hits []Hit
	// Unread names the files that may hold the phrase but whose text the
	// tree does not have (unreadable when it was loaded): a server that
	// cannot read them either should say so.
	Unread []string
}

// Under returns the hits a server taking the room p returns; Under(0) is
// what every correct server returns (up to MaxPassages), Under(AnyRoom)
// everything a correct server may return.
func (a *Answer) Under(p Room) []Hit {
	var out []Hit
	for _, h := range a.Hits {
		if h.Under(p) {
			out = append(out, h)
		}
	}
	return out
}

// Find returns the hit of file that passage presents exactly (see Exact).
func (a *Answer) Find(file, passage string) (Hit, bool) {
	for _, h := range a.Hits {
		if h.File != file {
			continue
		}
		for _, text := range append([]string{h.Text}, h.Forms...) {
			if Exact(passage, text) {
				return h, true
			}
		}
	}
	return Hit{}, false
}

// Ask computes the true answer to query over the root t describes.
func Ask(t Tree, query string) Answer { return NewAsker(t).Ask(query) }

// Asker answers queries over one tree, as [Ask] does. It splits each note
// into paragraphs and folds their text once, on the first query that
// needs it, however many queries it answers. The tree must not change
// while the Asker is in use.
type Asker struct {
	t     Tree
	names []string // t's names, in byte order
	notes map[string]*readNote
}

// readNote is a note as every query reads it.
type readNote struct {
	room  Room // the file's own room
	paras []readPara
}

// readPara is one paragraph of a note, its text folded both ways.
type readPara struct {
	para
	text   []byte
	simple []unit
	// full is nil when full folding changes no rune of the paragraph:
	// then it is simple.
	full  []unit
	parts []span // partsWhenWhiteEnds
}

// NewAsker returns an Asker over t.
func NewAsker(t Tree) *Asker {
	names := make([]string, 0, len(t))
	for name := range t {
		names = append(names, name)
	}
	sort.Strings(names)
	return &Asker{t: t, names: names, notes: map[string]*readNote{}}
}

// note returns the note at name read, or nil when name holds no
// searchable text.
func (k *Asker) note(name string) *readNote {
	if n, done := k.notes[name]; done {
		return n
	}
	var n *readNote
	e := k.t[name]
	if fr, ok := k.t.fileRoom(name, e); ok {
		n = &readNote{room: fr}
		for _, p := range paragraphs(e.Data) {
			text := e.Data[p.start:p.end]
			rp := readPara{para: p, text: text, simple: units(text, false), parts: partsWhenWhiteEnds(text)}
			if folds(text) {
				rp.full = units(text, true)
			}
			n.paras = append(n.paras, rp)
		}
	}
	k.notes[name] = n
	return n
}

// Ask computes the true answer to query over the Asker's tree.
func (k *Asker) Ask(query string) Answer {
	a := Answer{Query: query, Refusal: refusal(query)}
	words := strings.FieldsFunc(query, unicode.IsSpace)
	if a.Refusal == MustRefuse || len(words) == 0 {
		return a
	}
	simple, full := makePhrase(words, false), makePhrase(words, true)
	// Where neither the query nor a paragraph has a rune that full
	// folding changes, the full matches are the simple ones with more
	// room, which the simple ones cover: they are not looked for.
	queryFolds := !slices.EqualFunc(simple, full, slices.Equal)
	for _, name := range k.names {
		e := k.t[name]
		if e.Kind == Regular && e.Unreadable && e.Data == nil && !k.t.throughLink(name) {
			a.Unread = append(a.Unread, name)
			continue
		}
		n := k.note(name)
		if n == nil {
			continue
		}
		for i := range n.paras {
			if h, ok := n.paras[i].hit(name, n.room, simple, full, queryFolds); ok {
				a.Hits = append(a.Hits, h)
			}
		}
	}
	return a
}

// hit returns the hit of the phrase in the paragraph, if it holds it; fr
// is the note's own room.
func (p *readPara) hit(name string, fr Room, simple, full phrase, queryFolds bool) (Hit, bool) {
	occs := simple.find(p.simple)
	if fu := p.full; fu != nil || queryFolds {
		if fu == nil {
			fu = p.simple
		}
		for _, o := range full.find(fu) {
			o.room |= RoomFullFold
			occs = append(occs, o)
		}
	}
	if len(occs) == 0 {
		return Hit{}, false
	}
	forms := slices.Clone(p.forms)
	for _, part := range p.parts {
		// A part is the passage of a reader that ends the paragraph at
		// a line of white space, for a phrase it holds whole.
		for _, o := range occs {
			if o.start >= part.start && o.end <= part.end {
				forms = append(forms, string(p.text[part.start:part.end]))
				break
			}
		}
	}
	// In order of position; an occurrence found both ways keeps its
	// simple folding first. One that needs at least the room of an
	// earlier one is never the first a server finds: only the others are
	// kept.
	sort.SliceStable(occs, func(i, j int) bool { return occs[i].start < occs[j].start })
	kept := occs[:0]
	for _, o := range occs {
		o.room |= fr
		if !coveredBy(kept, o.room) {
			o.line = p.line + bytes.Count(p.text[:o.start], []byte{'\n'})
			kept = append(kept, o)
		}
	}
	least := kept[0].room
	for _, o := range kept {
		if bitCount(o.room) < bitCount(least) {
			least = o.room
		}
	}
	return Hit{
		File: name, Text: string(p.text), Forms: forms,
		StartLine: p.line, Line: kept[0].line,
		Room: least, occs: kept,
	}, true
}

// coveredBy reports whether one of occs needs no more room than room.
func coveredBy(occs []occurrence, room Room) bool {
	for _, o := range occs {
		if o.room&^room == 0 {
			return true
		}
	}
	return false
}

func bitCount(r Room) int {
	n := 0
	for ; r != 0; r &= r - 1 {
		n++
	}
	return n
}

// refusal says whether query may, must or must not be refused. Its length
// is counted two ways, the fewest (code points once surrounding white
// space is trimmed) and the most (bytes as sent: never fewer than UTF-16
// units or code points).
func refusal(query string) Refusal {
	least := utf8.RuneCountInString(strings.TrimSpace(query))
	switch {
	case least > MaxQuery:
		return MustRefuse
	case len(query) > MaxQuery || strings.TrimSpace(query) == "" || !utf8.ValidString(query):
		return MayRefuse
	}
	for _, r := range query {
		if unicode.IsControl(r) {
			return MayRefuse
		}
	}
	return MustSearch
}
