package diagnose

// Mistake names one way a server goes wrong, as a learner would fix it.
type Mistake string

// Passages missing, by where they sit.
const (
	LastParagraph   Mistake = "the last paragraph of a note is never searched (no flush after the line loop)"
	LaterPassages   Mistake = "only the first passage of each note is returned"
	AfterUnreadable Mistake = "the search stops at the first unreadable note in walk order"
	AfterBinary     Mistake = "the search stops at the first binary note in walk order"
	Subfolders      Mistake = "notes in subfolders are never searched"
	SameText        Mistake = "passages are deduplicated by their text: the same paragraph in another note is dropped"
	CaseSensitive   Mistake = "the phrase is matched with its case: the paragraph holds it in other capitals"
	CaseFold        Mistake = "the phrase is there only under a Unicode case fold the comparison lacks (σ, ς and Σ; ß and ẞ; K and the Kelvin sign)"
	AddedNote       Mistake = "a note added while the server runs is never found (notes read once at start-up)"
	Missed          Mistake = "true hits are missing"
)

// Files returned that hold no hit.
const (
	AcrossBlank Mistake = "the phrase is matched across a blank line, over two paragraphs"
	WordsApart  Mistake = "the query's words are matched apart, not as one phrase"
	BinaryNamed Mistake = "a binary note (a NUL byte) is searched and named as a result"
	Oversized   Mistake = "a note over 102,400 bytes is searched"
	Invented    Mistake = "a file that holds no match is named as a result"
)

// Passage bytes.
const (
	CRsDropped    Mistake = "the passage lost its CRs (the note was read with newline translation)"
	TrailingSpace Mistake = "the passage lost the spaces or tabs that end its lines (TrimRight)"
	Replacement   Mistake = "invalid UTF-8 was decoded leniently: the passage holds U+FFFD where the note has other bytes"
	Recased       Mistake = "the passage is re-cased: cut from a lowercased or folded copy"
	Shifted       Mistake = "the passage is cut at offsets of a lowercased or folded copy, whose length differs: it starts or ends in the text around its paragraph"
	Separators    Mistake = "a lone CR, U+2028, U+0085 or form feed inside the paragraph came back as a line feed"
	Joined        Mistake = "two paragraphs are returned as one passage"
	CutShort      Mistake = "the passage is cut short of its paragraph"
	OtherBytes    Mistake = "the passage is not its paragraph byte for byte"
	Stale         Mistake = "the passage is text no note holds any more (notes read once at start-up)"
)

// Limits.
const (
	LimitBytes    Mistake = "the query limit is counted in bytes, not characters"
	LimitUTF16    Mistake = "the query limit is counted in UTF-16 units (or bytes), not characters"
	LimitOffByOne Mistake = "the query limit is off by one"
	NoLimit       Mistake = "a query over 200 characters is searched, not refused"
	LineLimit     Mistake = "a long request line ends the server (a line reader with a fixed buffer, as bufio.Scanner's 64 KiB default)"
)

// Diagnosis is one mistake a reply shows, the check whose rule it breaks
// and what shows it.
type Diagnosis struct {
	Mistake Mistake
	// Owner is the id of the check whose rule the mistake breaks; Warn
	// marks one the specification leaves room for.
	Owner string
	Warn  bool
	// Files names the notes that show it, root-relative.
	Files []string
	// Hint is the fix; "" where the owning check's own fix is the one.
	Hint string
}

// rule is what a mistake is charged to and the fix it calls for: none
// where the owning check's own fix is the one.
type rule struct {
	owner string
	warn  bool
	hint  string
}

var rules = map[Mistake]rule{
	LastParagraph:   {"1", false, "After the loop over a note's lines, search the paragraph still being collected: a note's last paragraph has no blank line after it."},
	LaterPassages:   {"1", false, "Keep searching a note after its first matching paragraph: every matching paragraph is a passage."},
	AfterUnreadable: {"22", false, "Skip a note you cannot open and go on with the next one; say which notes were skipped."},
	AfterBinary:     {"20", false, "Skip a binary note (a NUL byte) and go on with the next one."},
	Subfolders:      {"3", false, "Walk the whole tree under the root, folders inside folders."},
	SameText:        {"1", false, "Key results by file and position, never by the passage's text: two notes may hold the same paragraph."},
	CaseSensitive:   {"9", false, ""}, // check 9's own fix
	CaseFold:        {"10", true, "Compare with a Unicode simple case fold (Go strings.EqualFold or unicode.SimpleFold, Python str.casefold, a JavaScript regular expression with the iu flags), not by lowercasing."},
	AddedNote:       {"15", true, "Read the notes on every search, not once at start-up."},
	Missed:          {"1", false, "Return every paragraph that holds the phrase, up to 10 in all."},
	AcrossBlank:     {"11", false, "Split a note into paragraphs at blank lines first, then look for the phrase inside each paragraph."},
	WordsApart:      {"11", false, "Match the query as one phrase: its words in order with white space between them, not each word anywhere."},
	BinaryNamed:     {"20", false, "Skip a note that holds a NUL byte: it is not text."},
	Oversized:       {"6", false, "Skip notes over 102,400 bytes, counted in bytes of the file."},
	Invented:        {"2", false, "Name a file only for a paragraph of it that holds the phrase."},
	CRsDropped:      {"1", false, "Read notes as bytes or UTF-8 without newline translation and keep every CR."},
	TrailingSpace:   {"1", false, "Keep each line as the file holds it: do not trim the white space that ends it (Markdown hard line breaks)."},
	Replacement:     {"1", false, "Do not decode invalid UTF-8 with replacement characters: skip such a note, or return its bytes as they are."},
	Recased:         {"1", false, "Cut the passage from the original text, at offsets of the original, never of a lowercased or folded copy."},
	Shifted:         {"1", false, "Cut the passage at offsets of the original text, never of a lowercased or folded copy: folding changes the length of some characters (K, Å, İ, ß)."},
	Separators:      {"1", false, "End lines at LF only (a CR right before it belongs to it): a lone CR, U+2028, U+0085 or a form feed is a character of the line, returned as it is."},
	Joined:          {"1", false, "End a passage at the blank line that ends its paragraph."},
	CutShort:        {"1", false, "Return the whole paragraph, every line of it."},
	OtherBytes:      {"1", false, "Return the paragraph exactly as the file holds it."},
	Stale:           {"1", false, "Read the notes on every search, not once at start-up: a passage must be in a note as it is now."},
	LimitBytes:      {"6", false, "Count the query's length in characters (code points), not bytes."},
	LimitUTF16:      {"6", true, "Count the query's length in code points: Java codePointCount, JavaScript [...query].length, not .length."},
	LimitOffByOne:   {"6", false, "Accept 200 characters and refuse 201."},
	NoLimit:         {"6", false, "Refuse a query over 200 characters with a bounded error."},
	LineLimit:       {"6", false, "Read request lines of any length (bufio.Reader.ReadBytes, or bufio.Scanner with a Buffer far above any request) and refuse an oversized query with a bounded error; never exit on a long line."},
}

// diagnosis builds the diagnosis of m, shown by files.
func diagnosis(m Mistake, files ...string) Diagnosis {
	r := rules[m]
	return Diagnosis{Mistake: m, Owner: r.owner, Warn: r.warn, Files: files, Hint: r.hint}
}
