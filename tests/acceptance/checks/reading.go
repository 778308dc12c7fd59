package checks

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/tests/acceptance/truth"

	"practice-notes/tests/acceptance/visible"
)

// reading is what one tool result presents, whatever its layout: plain
// text, several text blocks, JSON text, or structuredContent with any
// field names. Every check judges a reading, never a layout, so that a
// server is graded on what it says and not on how this repository's own
// server happens to shape its answer.
type Reading struct {
	IsError bool
	// Strings holds every string the reply carries: each text block as
	// it is, and every string value inside JSON text or structuredContent.
	Strings []string
	// Items are the result entries of a JSON reply: objects that name a
	// file outside any skip or refusal list.
	Items []Item
	// Results are the files named as results, Skipped those named in a
	// skip or refusal note; both as written, in order, without repeats.
	Results []string
	Skipped []string
	// NoteIDs are the note IDs named outside passages and the echoed query.
	NoteIDs []string
	// NoMatch is set when the reply states that nothing matched: a
	// negation (no, none, 0, not, nothing) with match, result, found,
	// passage or note; "not searched" or an empty list alone is not one.
	NoMatch bool
	// Truncated is the value of a boolean field whose name says
	// truncated, when the reply has one.
	Truncated *bool
	// Quoted are the root paragraphs the reply holds byte for byte.
	Quoted []Paragraph
	// prose is what the reply says besides passages and the echoed query.
	prose []string
	// paras are the root's paragraphs: a value that is one is note text,
	// whatever its field is called.
	paras []Paragraph
}

// item is one result entry of a JSON reply.
type Item struct {
	File    string
	NoteID  string
	Passage string // "" when the entry carries no text
	Key     string // the field the passage came from
	Clipped bool   // the entry says its passage was shortened
}

var (
	noteNameRe  = regexp.MustCompile(`(?:^|[\s"'(\[<:,=*_|>#` + "`" + `])((?:\.{0,2}[/\\])?(?:[\w.\-~À-ɏ]+[/\\])*[\w\-~À-ɏ][\w.\-~À-ɏ]*\.(?:md|markdown|txt))\b`)
	uriNameRe   = regexp.MustCompile(`\b[a-zA-Z][\w+.-]*://[^\s"'<>()\[\]` + "`" + `]+`)
	uriFileRe   = regexp.MustCompile(`(?i)\.(?:md|markdown|txt)$|[?&](?:file|path|filepath)=`)
	uriRe       = regexp.MustCompile(`\b([a-zA-Z][\w+.-]*)://(/*)`)
	pathLikeRe  = regexp.MustCompile(`^(?:\.{0,2}/|/)?(?:[^\s/]+/)*[^\s/]+\.(?:md|markdown|txt)$`)
	noteIDRe    = regexp.MustCompile(`\bN\d+\b`)
	bareIDRe    = regexp.MustCompile(`^N\d+$`)
	fileKeyRe   = regexp.MustCompile(`(?i)file|path|source|^name$|doc|uri|^note$`)
	idKeyRe     = regexp.MustCompile(`(?i)^(note_?id|noteid|id|note|note-id)$`)
	passKeyRe   = regexp.MustCompile(`(?i)passage|text|quote|snippet|excerpt|content|paragraph|match|body|^line$`)
	skipKeyRe   = regexp.MustCompile(`(?i)skip|ignor|exclud|refus|error|unread|omit|not_?searched|warning|denied|rejected|failed`)
	truncKeyRe  = regexp.MustCompile(`(?i)truncat`)
	countKeyRe  = regexp.MustCompile(`(?i)^(count|total|found|matches|results|hits|num|n|total_?matches|match_?count|result_?count|totalResults|totalMatches)$`)
	foundKeyRe  = regexp.MustCompile(`(?i)^(found|matched|has_?matches|any_?match)$`)
	clipKeyRe   = regexp.MustCompile(`(?i)clip|truncat|shortened|cut`)
	skipWordsRe = regexp.MustCompile(`(?i)skip|not searched|not read|too (large|big|long)|larger than|over \d|over the|exceed|unreadable|cannot|can't|could not|couldn't|denied|refus|ignor|error|binary|symlink|symbolic link|not followed|permission|not a regular`)
	// A negated statement about matches: "No notes matched", "0 results",
	// "nothing found", "did not match", "matches: 0".
	noMatchRe    = regexp.MustCompile(`(?i)(?:\b(?:no|none|zero|0|not|nothing|never|empty)\b|n't\b)(?:\W+\w+){0,3}?\W+(match\w*|results?|found|finds?|passages?|notes?|hits?)\b`)
	noMatchRevRe = regexp.MustCompile(`(?i)\b(match(?:es|ed)?|results?|found|passages?|hits?)\b\W+(?:\w+\W+){0,2}?(no|none|nothing|zero|0)\b`)
	notSearchRe  = regexp.MustCompile(`(?i)^\W+(?:\w+\W+){0,2}?(searched|skipped|read|scanned|opened|ignored|excluded)\b`)
)

// readResult reads a tool result. query is the query the request sent
// (echoes of it are masked), paras are the root's paragraphs.
func ReadResult(res *mcp.CallToolResult, query string, paras []Paragraph) *Reading {
	rd := &Reading{paras: paras}
	if res == nil {
		return rd
	}
	rd.IsError = res.IsError
	var plain []string
	var docs []any
	for _, c := range res.Content {
		var text string
		switch c := c.(type) {
		case *mcp.TextContent:
			text = c.Text
		case *mcp.EmbeddedResource:
			if c.Resource != nil {
				text = c.Resource.Text
			}
		case *mcp.ResourceLink:
			text = c.URI + " " + c.Name
		default:
			continue
		}
		rd.Strings = append(rd.Strings, text)
		var v any
		if t := strings.TrimSpace(text); (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Unmarshal([]byte(t), &v) == nil {
			docs = append(docs, v)
			continue
		}
		plain = append(plain, text)
	}
	if res.StructuredContent != nil {
		docs = append(docs, NormalizeJSON(res.StructuredContent))
	}
	for _, d := range docs {
		rd.Strings = append(rd.Strings, jsonStrings(d)...)
		rd.walk(d, nil, ctxResult, query, true)
	}
	for _, t := range plain {
		rd.prose = append(rd.prose, maskEcho(mask(t, "", paras), query))
	}
	for _, p := range rd.prose {
		rd.readProse(p)
	}
	for _, it := range rd.Items {
		if it.NoteID != "" {
			rd.NoteIDs = AppendNew(rd.NoteIDs, it.NoteID)
		}
	}
	for _, p := range paras {
		if quotes(rd.Strings, p.Text) {
			rd.Quoted = append(rd.Quoted, p)
		}
	}
	return rd
}

// Where a JSON value sits: among results, in a skip or refusal note, or
// in a list of what was looked at (neither).
const (
	ctxResult = iota
	ctxSkip
	ctxOther
)

var (
	reasonKeyRe = regexp.MustCompile(`(?i)^(reason|error|why)$`)
	otherKeyRe  = regexp.MustCompile(`(?i)searched|scanned|checked|visited|considered|candidates|^query$|^args|arguments|tools`)
)

// walk reads a JSON value: result entries, skip lists, counts and flags.
// top says v is the whole JSON text (or structuredContent).
func (rd *Reading) walk(v any, keys []string, where int, query string, top bool) {
	skipCtx := where == ctxSkip
	switch x := v.(type) {
	case map[string]any:
		// The top-level object is the reply itself, not one entry (its
		// fields may echo the query), unless it is flat: one text block
		// per result, each one object with a file and a passage.
		if f := fileOf(x, query); f != "" && where != ctxOther && (!top || flat(x)) {
			if skipCtx || hasKey(x, reasonKeyRe) && passageOf(x, f, rd.paras) == "" {
				rd.Skipped = AppendNew(rd.Skipped, f)
			} else {
				it := Item{File: f, NoteID: noteIDOf(x)}
				it.Key, it.Passage = passageKeyOf(x, f, rd.paras)
				for k, e := range x {
					if b, ok := e.(bool); ok && b && clipKeyRe.MatchString(k) {
						it.Clipped = true
					}
				}
				if !rd.hasItem(it) {
					rd.Items = append(rd.Items, it)
				}
				rd.Results = AppendNew(rd.Results, f)
			}
		}
		names := make([]string, 0, len(x))
		for k := range x {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			e := x[k]
			if pathLikeRe.MatchString(k) && where != ctxOther {
				rd.keyedByFile(k, e, where)
				continue
			}
			switch ev := e.(type) {
			case bool:
				if truncKeyRe.MatchString(k) {
					b := ev
					rd.Truncated = &b
				}
				if !ev && foundKeyRe.MatchString(k) && where == ctxResult {
					rd.NoMatch = true
				}
			case float64:
				if ev == 0 && countKeyRe.MatchString(k) && !skipCtx {
					rd.NoMatch = true
				}
			case string:
				// A value that is note text is not the reply's own words,
				// whatever the field is called: paths inside it are not
				// paths the server named.
				if !fileKeyRe.MatchString(k) && !passKeyRe.MatchString(k) && !rd.noteText(ev) {
					rd.prose = append(rd.prose, mask(ev, query, rd.paras))
				}
			}
			next := where
			switch {
			case where == ctxOther:
			case skipKeyRe.MatchString(k):
				next = ctxSkip
			case otherKeyRe.MatchString(k):
				next = ctxOther
			}
			rd.walk(e, append(keys, k), next, query, false)
		}
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok && pathLikeRe.MatchString(plainURIs(s)) {
				switch where {
				case ctxSkip:
					rd.Skipped = AppendNew(rd.Skipped, s)
				case ctxResult:
					rd.Results = AppendNew(rd.Results, s)
				}
				continue
			}
			rd.walk(e, keys, where, query, false)
		}
	}
}

// keyedByFile reads a field named by a file: {"a.md": ["passage", ...]}
// or {"a.md": "passage"} lists a.md's results (or skips).
func (rd *Reading) keyedByFile(file string, v any, where int) {
	if where == ctxSkip {
		rd.Skipped = AppendNew(rd.Skipped, file)
		return
	}
	var texts []string
	switch x := v.(type) {
	case string:
		texts = []string{x}
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				texts = append(texts, s)
			}
		}
	default:
		return
	}
	rd.Results = AppendNew(rd.Results, file)
	for _, t := range texts {
		if it := (Item{File: file, Passage: t, Key: file}); !rd.hasItem(it) {
			rd.Items = append(rd.Items, it)
		}
	}
}

// plainURIs rewrites URIs to the paths they name: file:///a/b.md is the
// absolute path /a/b.md, and any other scheme (practice-notes:///b.md,
// notes://b.md) names b.md relative to the root.
func plainURIs(text string) string {
	return uriRe.ReplaceAllStringFunc(text, func(m string) string {
		if strings.EqualFold(uriRe.FindStringSubmatch(m)[1], "file") {
			return "/"
		}
		return ""
	})
}

// readProse finds the files, note IDs and no-match statements of text
// whose passages and echoed query are already masked.
func (rd *Reading) readProse(text string) {
	for _, line := range strings.Split(text, "\n") {
		names := fileNames(line)
		// The words say a file was skipped, not the names: a result line
		// for traps/binary-note.md is a result. A refusal (isError) names
		// what it refused, often the caller's own argument, never a result.
		words := line
		for _, name := range names {
			words = strings.ReplaceAll(words, name, " ")
		}
		for _, name := range names {
			if rd.IsError || skipWordsRe.MatchString(words) {
				rd.Skipped = AppendNew(rd.Skipped, name)
			} else {
				rd.Results = AppendNew(rd.Results, name)
			}
		}
		for _, id := range noteIDRe.FindAllString(line, -1) {
			rd.NoteIDs = AppendNew(rd.NoteIDs, id)
		}
		if statesNoMatch(line) {
			rd.NoMatch = true
		}
	}
}

// fileNames returns the file names a line of prose offers, as written and
// in order: URIs of any scheme whose path (or file parameter) names a
// note, then names and paths; RootRel reads each.
func fileNames(line string) []string {
	type at struct {
		i    int
		name string
	}
	var found []at
	for _, loc := range uriNameRe.FindAllStringIndex(line, -1) {
		u := strings.TrimRight(line[loc[0]:loc[1]], ".,;:!?*_~")
		if !uriFileRe.MatchString(u) {
			continue
		}
		found = append(found, at{loc[0], u})
		line = line[:loc[0]] + strings.Repeat(" ", loc[1]-loc[0]) + line[loc[1]:]
	}
	for _, m := range noteNameRe.FindAllStringSubmatchIndex(line, -1) {
		found = append(found, at{m[2], line[m[2]:m[3]]})
	}
	sort.SliceStable(found, func(a, b int) bool { return found[a].i < found[b].i })
	names := make([]string, len(found))
	for i, f := range found {
		names[i] = f.name
	}
	return names
}

// statesNoMatch reports whether a line says that nothing matched. File
// names are blanked first: "oversized-notes.md" is not a word "notes".
func statesNoMatch(line string) bool {
	line = noteNameRe.ReplaceAllString(line, " \x00")
	for _, loc := range noMatchRe.FindAllStringIndex(line, -1) {
		if !notSearchRe.MatchString(line[loc[1]:]) && !searchedRe.MatchString(line[loc[0]:loc[1]]) {
			return true
		}
	}
	return noMatchRevRe.MatchString(line)
}

var searchedRe = regexp.MustCompile(`(?i)\b(searched|skipped|read|scanned|opened|ignored|excluded)\b`)

// mask blanks the root paragraphs a text quotes and the echoed query, so
// that file names and note IDs inside note text are not read as the
// reply's own words.
//
// Paragraphs go first, whole; then each of their lines, in any case, so
// that a cut or re-cased passage is masked too.
func mask(text, query string, paras []Paragraph) string {
	for _, p := range paras {
		if len(p.Text) >= 12 && strings.Contains(text, p.Text) {
			text = strings.ReplaceAll(text, p.Text, "\x00")
		}
	}
	f := newFolded(text)
	for _, p := range paras {
		for line := range strings.SplitSeq(p.Text, "\n") {
			if len(line) >= 16 {
				f.maskFold(line)
			}
		}
	}
	return maskQuery(f.text, query)
}

// folded is a text and its lower case, for masking many lines in turn
// without lowering the text again for each.
type folded struct {
	text, low string
	// inStep says that text is UTF-8 whose every rune lowers to one of
	// its own length: low's offsets are text's.
	inStep bool
}

func newFolded(text string) *folded {
	f := &folded{text: text, inStep: lowersInPlace(text)}
	if f.inStep {
		f.low = strings.ToLower(text)
	}
	return f
}

// maskFold does to f.text what maskFold does to a text.
func (f *folded) maskFold(sub string) {
	if !f.inStep || !lowersInPlace(sub) {
		if t := maskFold(f.text, sub); t != f.text {
			*f = *newFolded(t)
		}
		return
	}
	// Most lines are not in the text: their ASCII start, lowered on the
	// stack, tells so before the whole line is lowered.
	var start [16]byte
	n := 0
	for n < len(start) && n < len(sub) && sub[n] < utf8.RuneSelf {
		start[n] = sub[n]
		if 'A' <= start[n] && start[n] <= 'Z' {
			start[n] += 'a' - 'A'
		}
		n++
	}
	if !strings.Contains(f.low, string(start[:n])) {
		return
	}
	lsub := strings.ToLower(sub)
	i := strings.Index(f.low, lsub)
	if i < 0 {
		return
	}
	// Both UTF-8 and lowered rune for rune in place, lsub is found in
	// low only at rune boundaries, which are text's: blanking the same
	// bytes of both keeps low the lower case of text.
	var t, l strings.Builder
	text, low := f.text, f.low
	for ; i >= 0; i = strings.Index(low, lsub) {
		t.WriteString(text[:i])
		t.WriteByte(0)
		l.WriteString(low[:i])
		l.WriteByte(0)
		text, low = text[i+len(sub):], low[i+len(sub):]
	}
	t.WriteString(text)
	l.WriteString(low)
	f.text, f.low = t.String(), l.String()
}

// lowersInPlace reports whether s is UTF-8 whose every rune lowers to a
// rune of the same length.
func lowersInPlace(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || utf8.RuneLen(unicode.ToLower(r)) != size {
			return false
		}
		i += size
	}
	return true
}

// maskFold blanks every occurrence of sub in text, in any ASCII case.
func maskFold(text, sub string) string {
	low, lsub := strings.ToLower(text), strings.ToLower(sub)
	if len(low) != len(text) || len(lsub) != len(sub) {
		return strings.ReplaceAll(text, sub, "\x00")
	}
	var b strings.Builder
	for {
		i := strings.Index(low, lsub)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		b.WriteString("\x00")
		text, low = text[i+len(sub):], low[i+len(sub):]
	}
}

func maskQuery(text, query string) string {
	if strings.TrimSpace(query) == "" {
		return text
	}
	return regexp.MustCompile(`(?i)`+regexp.QuoteMeta(query)).ReplaceAllString(text, "\x00")
}

// maskEcho blanks the echoed query in a text block. A query that is a
// file name is echoed in a sentence ("No matches for a.md"); on a line of
// its own, with markup, a note ID or a line number at most, it names a
// result. (A JSON value is never such a line: maskQuery blanks it.)
func maskEcho(text, query string) string {
	if strings.TrimSpace(query) == "" || !noteNameRe.MatchString(" "+query) {
		return maskQuery(text, query)
	}
	re := regexp.MustCompile(`(?i)` + regexp.QuoteMeta(query))
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if rest := re.ReplaceAllString(line, ""); !headingRestRe.MatchString(rest) {
			lines[i] = re.ReplaceAllString(line, "\x00")
		}
	}
	return strings.Join(lines, "\n")
}

// headingRestRe is what a line naming a result may hold besides the name:
// markup, a note ID, a line number. Quotation marks are not markup: the
// name in quotes, of any kind, is the query echoed.
var headingRestRe = regexp.MustCompile(`(?i)^[\s\x00#>*_\-+.:|()\[\]` + "`" + `0-9,]*(?:(?:N\d+|lines?|L)[\s\x00#>*_\-+.:|()\[\]` + "`" + `0-9,]*)*$`)

func fileOf(m map[string]any, query string) string {
	best := ""
	for k, v := range m {
		s, ok := v.(string)
		if !ok || otherKeyRe.MatchString(k) {
			continue
		}
		if pathLikeRe.MatchString(plainURIs(s)) {
			if fileKeyRe.MatchString(k) || best == "" {
				best = s
			}
		}
	}
	return best
}

func noteIDOf(m map[string]any) string {
	for k, v := range m {
		if s, ok := v.(string); ok && noteIDRe.MatchString(s) && (idKeyRe.MatchString(k) || bareIDRe.MatchString(s)) {
			if id := noteIDRe.FindString(s); id != "" && len(s) <= 12 {
				return id
			}
		}
	}
	return ""
}

func passageOf(m map[string]any, file string, paras []Paragraph) string {
	_, p := passageKeyOf(m, file, paras)
	return p
}

// passageKeyOf picks the entry's passage: a string under a passage-like
// key, else its longest other string of some length.
func passageKeyOf(m map[string]any, file string, paras []Paragraph) (key, passage string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != file && isParagraph(s, paras) {
			return k, s
		}
	}
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != file && passKeyRe.MatchString(k) && !fileKeyRe.MatchString(k) {
			return k, s
		}
	}
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != file && len(s) >= 15 && len(s) > len(passage) && !fileKeyRe.MatchString(k) {
			key, passage = k, s
		}
	}
	return key, passage
}

// hasItem reports whether the reading already holds an entry for the same
// file and passage: a text block that mirrors structuredContent repeats
// every entry.
func (rd *Reading) hasItem(it Item) bool {
	for _, x := range rd.Items {
		if x.File == it.File && x.Passage == it.Passage && x.NoteID == it.NoteID {
			return true
		}
	}
	return false
}

func hasKey(m map[string]any, re *regexp.Regexp) bool {
	for k := range m {
		if re.MatchString(k) {
			return true
		}
	}
	return false
}

func AppendNew(list []string, s string) []string {
	if s == "" || contains(list, s) {
		return list
	}
	return append(list, s)
}

// names reports whether the reply names rel as a result: as written, or
// with a leading "./" or the root's own path before it.
func (rd *Reading) Names(rel string) bool {
	for _, f := range rd.Results {
		if cleanName(f) == rel || strings.HasSuffix(f, "/"+rel) {
			return true
		}
	}
	return false
}

func cleanName(f string) string {
	return strings.TrimPrefix(strings.ReplaceAll(f, `\`, "/"), "./")
}

// quotes reports whether the reply holds a root paragraph containing sub.
func (rd *Reading) Quotes(sub string) bool {
	return containsAny(rd.Strings, sub)
}

// found is what a reading found: its result files and the passages it
// offered (keyed by their lower-cased text), for comparing two spellings
// of one query.
func (rd *Reading) Found() (files []string, passages map[string]string) {
	passages = map[string]string{}
	for _, f := range rd.Results {
		files = AppendNew(files, cleanName(f))
	}
	for _, it := range rd.Items {
		passages[strings.ToLower(it.Passage)] = it.Passage
	}
	for _, p := range rd.Quoted {
		passages[strings.ToLower(p.Text)] = p.Text
	}
	sort.Strings(files)
	return files, passages
}

// missing lists what ref found that rd did not.
func (rd *Reading) Missing(ref *Reading) []string {
	rf, rp := ref.Found()
	f, p := rd.Found()
	var out []string
	for _, x := range rf {
		if !contains(f, x) {
			out = append(out, "file "+x)
		}
	}
	var lost []string
	for k, orig := range rp {
		if _, ok := p[k]; !ok {
			lost = append(lost, orig)
		}
	}
	sort.Strings(lost)
	for _, x := range lost {
		out = append(out, fmt.Sprintf("passage %q", visible.Clip(x, 60)))
	}
	return out
}

func NormalizeJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// firstText returns the first text content block, if any.
func FirstText(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

func containsAny(texts []string, sub string) bool {
	for _, t := range texts {
		if strings.Contains(t, sub) {
			return true
		}
	}
	return false
}

// flat reports whether an object holds no object or array: one entry.
func flat(m map[string]any) bool {
	for _, v := range m {
		switch v.(type) {
		case map[string]any, []any:
			return false
		}
	}
	return true
}

// isParagraph reports whether s presents a root paragraph exactly.
func isParagraph(s string, paras []Paragraph) bool {
	texts := truth.Presented(s)
	for _, p := range paras {
		if slices.Contains(texts, p.Text) {
			return true
		}
	}
	return false
}

// noteText reports whether s is note text: a root paragraph as Markdown
// may present it, or text holding one.
func (rd *Reading) noteText(s string) bool {
	return isParagraph(s, rd.paras) || strings.Trim(mask(s, "", rd.paras), "\x00 \t\r\n") == ""
}

// quotes reports whether a text holds paragraph in a form the
// presentation rule allows (truth.Forms).
func quotes(texts []string, paragraph string) bool {
	_, ok := quotedIn(texts, paragraph)
	return ok
}
