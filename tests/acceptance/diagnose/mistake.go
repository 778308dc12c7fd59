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

// Diagnosis is one mistake a reply shows and what shows it. The check
// whose rule it breaks is package checks' to say.
type Diagnosis struct {
	Mistake Mistake
	// Warn marks a mistake the specification leaves room for.
	Warn bool
	// Files names the notes that show it, root-relative.
	Files []string
	// Hint is the fix; "" where the owning check's own fix is the one.
	Hint string
}

// rule is whether a mistake only warns and the fix it calls for: none
// where the owning check's own fix is the one.
type rule struct {
	warn bool
	hint string
}

var rules = map[Mistake]rule{
	LastParagraph:   {false, "After the loop over a note's lines, search the paragraph still being collected: a note's last paragraph has no blank line after it."},
	LaterPassages:   {false, "Keep searching a note after its first matching paragraph: every matching paragraph is a passage."},
	AfterUnreadable: {false, "Skip a note you cannot open and go on with the next one; say which notes were skipped."},
	AfterBinary:     {false, "Skip a binary note (a NUL byte) and go on with the next one."},
	Subfolders:      {false, "Walk the whole tree under the root, folders inside folders."},
	SameText:        {false, "Key results by file and position, never by the passage's text: two notes may hold the same paragraph."},
	CaseSensitive:   {false, ""}, // the owning check's own fix
	CaseFold:        {true, "Compare with a Unicode simple case fold (Go strings.EqualFold or unicode.SimpleFold, Python str.casefold, a JavaScript regular expression with the iu flags), not by lowercasing."},
	AddedNote:       {true, "Read the notes on every search, not once at start-up."},
	Missed:          {false, "Return every paragraph that holds the phrase, up to 10 in all."},
	AcrossBlank:     {false, "Split a note into paragraphs at blank lines first, then look for the phrase inside each paragraph."},
	WordsApart:      {false, "Match the query as one phrase: its words in order with white space between them, not each word anywhere."},
	BinaryNamed:     {false, "Skip a note that holds a NUL byte: it is not text."},
	Oversized:       {false, "Skip notes over 102,400 bytes, counted in bytes of the file."},
	Invented:        {false, "Name a file only for a paragraph of it that holds the phrase."},
	CRsDropped:      {false, "Read notes as bytes or UTF-8 without newline translation and keep every CR."},
	TrailingSpace:   {false, "Keep each line as the file holds it: do not trim the white space that ends it (Markdown hard line breaks)."},
	Replacement:     {false, "Do not decode invalid UTF-8 with replacement characters: skip such a note, or return its bytes as they are."},
	Recased:         {false, "Cut the passage from the original text, at offsets of the original, never of a lowercased or folded copy."},
	Shifted:         {false, "Cut the passage at offsets of the original text, never of a lowercased or folded copy: folding changes the length of some characters (K, Å, İ, ß)."},
	Separators:      {false, "End lines at LF only (a CR right before it belongs to it): a lone CR, U+2028, U+0085 or a form feed is a character of the line, returned as it is."},
	Joined:          {false, "End a passage at the blank line that ends its paragraph."},
	CutShort:        {false, "Return the whole paragraph, every line of it."},
	OtherBytes:      {false, "Return the paragraph exactly as the file holds it."},
	Stale:           {false, "Read the notes on every search, not once at start-up: a passage must be in a note as it is now."},
	LimitBytes:      {false, "Count the query's length in characters (code points), not bytes."},
	LimitUTF16:      {true, "Count the query's length in code points: Java codePointCount, JavaScript [...query].length, not .length."},
	LimitOffByOne:   {false, "Accept 200 characters and refuse 201."},
	NoLimit:         {false, "Refuse a query over 200 characters with a bounded error."},
	LineLimit:       {false, "Read request lines of any length (bufio.Reader.ReadBytes, or bufio.Scanner with a Buffer far above any request) and refuse an oversized query with a bounded error; never exit on a long line."},
}

// diagnosis builds the diagnosis of m, shown by files.
func diagnosis(m Mistake, files ...string) Diagnosis {
	r := rules[m]
	return Diagnosis{Mistake: m, Warn: r.warn, Files: files, Hint: r.hint}
}
