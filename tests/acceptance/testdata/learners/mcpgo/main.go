// Command mcpgo-notes is a practice-notes MCP server written as a learner
// might, following the mark3labs/mcp-go README: server.NewMCPServer, a tool
// built with mcp.NewTool and a handler that answers in plain text. It is a
// test fixture for the acceptance harness; -defect switches on exactly one
// mistake learners make.
//
//	go run . -root DIR [-defect ascii-fold|not-recursive|empty-lists-all|outside-text|across-blank]
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

const (
	fileLimit   = 102400 // bytes; larger files are skipped unread
	maxQuery    = 200    // characters (runes)
	maxPassages = 10
	maxLinks    = 8 // outside-text defect: how deep it follows linked dirs
)

var (
	rootFlag = flag.String("root", os.Getenv("PRACTICE_NOTES_ROOT"), "practice-data directory (or PRACTICE_NOTES_ROOT)")
	defect   = flag.String("defect", "", "one mistake: ascii-fold, not-recursive, empty-lists-all, outside-text, across-blank")
)

var defects = map[string]bool{"": true, "ascii-fold": true, "not-recursive": true, "empty-lists-all": true, "outside-text": true, "across-blank": true}

type passage struct {
	file, note, text string
}

func main() {
	flag.Parse()
	log.SetOutput(os.Stderr)
	log.SetPrefix("mcpgo-notes: ")
	if *rootFlag == "" {
		log.Fatal("usage: go run . -root DIR [-defect NAME]")
	}
	if !defects[*defect] {
		log.Fatalf("unknown defect %q", *defect)
	}
	root, err := filepath.Abs(*rootFlag)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		log.Fatalf("root: %v", err)
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		log.Fatalf("root %s is not a directory", root)
	}
	log.Printf("serving %s (defect %q)", root, *defect)

	s := server.NewMCPServer(
		"mcpgo-notes",
		"0.1.0",
		server.WithToolCapabilities(false),
		server.WithRecovery(),
	)
	tool := mcp.NewTool("search_notes",
		mcp.WithDescription("Search the practice notes for a phrase, ignoring capitalisation. Returns at most 10 passages, each with its file name and note ID."),
		mcp.WithString("query",
			mcp.Required(),
			mcp.Description("The phrase to look for, taken literally (1 to 200 characters)."),
			mcp.MaxLength(maxQuery),
		),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	s.AddTool(tool, func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return searchHandler(root, req), nil
	})

	if err := server.ServeStdio(s); err != nil {
		log.Printf("server stopped: %v", err)
	}
	log.Print("stdin closed, bye")
}

func searchHandler(root string, req mcp.CallToolRequest) *mcp.CallToolResult {
	args := req.GetArguments()
	for k := range args {
		if k != "query" {
			return mcp.NewToolResultError(fmt.Sprintf("unknown argument %q: search_notes takes only query", k))
		}
	}
	q, err := req.RequireString("query")
	if err != nil {
		return mcp.NewToolResultError("query must be a string: " + err.Error())
	}
	if n := utf8.RuneCountInString(q); n > maxQuery {
		return mcp.NewToolResultError(fmt.Sprintf("query is too long: %d characters, the limit is %d", n, maxQuery))
	}
	if !utf8.ValidString(q) {
		return mcp.NewToolResultError("query is not valid UTF-8")
	}
	if q == "" && *defect == "empty-lists-all" {
		// A learner's mistake: an empty query "matches everything".
		w := newWalker(root)
		var files []string
		w.visit = func(rel, text string) { files = append(files, rel) }
		w.run()
		log.Printf("search_notes empty query: listing %d files", len(files))
		return mcp.NewToolResultText(strings.Join(files, "\n"))
	}
	if strings.TrimSpace(q) == "" {
		return mcp.NewToolResultError("query must not be empty or only whitespace")
	}
	log.Printf("search_notes query=%q", q)
	found, skipped := search(root, q)
	return mcp.NewToolResultText(render(q, found, skipped))
}

func render(q string, found []passage, skipped int) string {
	if len(found) == 0 {
		msg := fmt.Sprintf("No notes matched %q.", q)
		if skipped > 0 {
			msg += " " + skippedText(skipped)
		}
		return msg
	}
	var blocks []string
	for i, p := range found {
		if i == maxPassages {
			break
		}
		label := p.file
		if p.note != "" {
			label += " [" + p.note + "]"
		}
		blocks = append(blocks, label+"\n"+p.text)
	}
	var tail []string
	if len(found) > maxPassages {
		tail = append(tail, fmt.Sprintf("%d results, showing the first %d.", len(found), maxPassages))
	}
	if skipped > 0 {
		tail = append(tail, skippedText(skipped))
	}
	if len(tail) > 0 {
		blocks = append(blocks, strings.Join(tail, " "))
	}
	return strings.Join(blocks, "\n\n")
}

func skippedText(n int) string {
	if n == 1 {
		return "1 file was skipped."
	}
	return fmt.Sprintf("%d files were skipped.", n)
}

// search returns every passage that contains q, ignoring case, in walk
// order, and how many .md entries were skipped.
func search(root, q string) ([]passage, int) {
	needle := lower(q)
	var found []passage
	w := newWalker(root)
	w.visit = func(rel, text string) {
		for _, p := range paragraphs(rel, text) {
			if strings.Contains(lower(p.text), needle) {
				found = append(found, p)
			}
		}
		if *defect == "across-blank" {
			found = append(found, acrossBlank(rel, text, q)...)
		}
	}
	w.run()
	return found, w.skipped
}

var blankLine = regexp.MustCompile(`\n[ \t\r]*\n`)

// acrossBlank is the across-blank defect: the query's words matched in
// the whole note with any white space between them, blank lines too, and
// the paragraphs the match touches returned as one passage.
func acrossBlank(rel, text, q string) []passage {
	words := strings.Fields(q)
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	re, err := regexp.Compile(`(?i)` + strings.Join(words, `\s+`))
	if err != nil || len(words) == 0 {
		return nil
	}
	var out []passage
	for _, m := range re.FindAllStringIndex(text, -1) {
		if !blankLine.MatchString(text[m[0]:m[1]]) {
			continue // found paragraph by paragraph already
		}
		start, end := 0, len(text)
		if b := blankLine.FindAllStringIndex(text[:m[0]], -1); len(b) > 0 {
			start = b[len(b)-1][1]
		}
		if b := blankLine.FindStringIndex(text[m[1]:]); b != nil {
			end = m[1] + b[0]
		}
		out = append(out, passage{file: rel, text: strings.TrimRight(text[start:end], "\r\n")})
	}
	return out
}

// lower case-folds for matching. The correct version is Unicode-aware.
func lower(s string) string {
	if *defect != "ascii-fold" {
		return fold(s)
	}
	// A learner's mistake: only A-Z are lower-cased.
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}

// walker visits every readable note file under root in lexical order.
type walker struct {
	root    string
	skipped int
	visit   func(rel, text string)
}

func newWalker(root string) *walker { return &walker{root: root} }

func (w *walker) run() {
	if err := filepath.WalkDir(w.root, w.walkFunc(0)); err != nil {
		log.Printf("walk: %v", err)
	}
}

func (w *walker) rel(p string) string {
	rel, err := filepath.Rel(w.root, p)
	if err != nil {
		return filepath.Base(p)
	}
	return filepath.ToSlash(rel)
}

func (w *walker) skip(rel, why string) {
	w.skipped++
	log.Printf("skipping %s: %s", rel, why)
}

func (w *walker) walkFunc(depth int) fs.WalkDirFunc {
	return func(p string, d fs.DirEntry, err error) error {
		rel := w.rel(p)
		if err != nil {
			if p == w.root && d == nil {
				return err
			}
			w.skip(rel, errText(err))
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if *defect == "outside-text" {
				w.followLink(p, rel, depth)
				return nil
			}
			if strings.HasSuffix(d.Name(), ".md") {
				w.skip(rel, "symbolic link")
			}
			return nil
		}
		if d.IsDir() {
			if *defect == "not-recursive" && p != w.root && depth == 0 {
				// A learner's mistake: only the top folder is searched.
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".md") {
			return nil
		}
		if !d.Type().IsRegular() {
			w.skip(rel, "not a regular file")
			return nil
		}
		w.readNote(p, rel)
		return nil
	}
}

// readNote reads one regular file without following links and hands its
// text to visit, or counts it as skipped.
func (w *walker) readNote(p, rel string) {
	info, err := os.Lstat(p)
	if err != nil {
		w.skip(rel, errText(err))
		return
	}
	if !info.Mode().IsRegular() {
		w.skip(rel, "not a regular file")
		return
	}
	if info.Size() > fileLimit {
		w.skip(rel, fmt.Sprintf("larger than %d bytes", fileLimit))
		return
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
		w.skip(rel, "has more than one hard link")
		return
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		w.skip(rel, errText(err))
		return
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !now.Mode().IsRegular() || !os.SameFile(info, now) {
		w.skip(rel, "changed while reading")
		return
	}
	b, err := io.ReadAll(io.LimitReader(f, fileLimit+1))
	if err != nil {
		w.skip(rel, errText(err))
		return
	}
	w.accept(rel, b)
}

func (w *walker) accept(rel string, b []byte) {
	if len(b) > fileLimit {
		w.skip(rel, fmt.Sprintf("larger than %d bytes", fileLimit))
		return
	}
	if bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b) {
		w.skip(rel, "not UTF-8 text")
		return
	}
	w.visit(rel, string(b))
}

// followLink is the outside-text defect: a learner who "handles" symlinks
// by resolving them with os.Stat and reading wherever they point.
func (w *walker) followLink(p, rel string, depth int) {
	info, err := os.Stat(p)
	if err != nil {
		w.skip(rel, errText(err))
		return
	}
	if info.IsDir() {
		if depth < maxLinks {
			// The trailing separator makes WalkDir descend into the link.
			_ = filepath.WalkDir(p+string(filepath.Separator), w.walkFunc(depth+1))
		}
		return
	}
	if !strings.HasSuffix(p, ".md") || !info.Mode().IsRegular() {
		return
	}
	if info.Size() > fileLimit {
		w.skip(rel, fmt.Sprintf("larger than %d bytes", fileLimit))
		return
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
		w.skip(rel, "has more than one hard link")
		return
	}
	b, err := os.ReadFile(p)
	if err != nil {
		w.skip(rel, errText(err))
		return
	}
	w.accept(rel, b)
}

// errText describes err without the absolute path it may carry.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return "cannot be read"
}

// paragraphs splits text into passages. Blank lines and Markdown headings
// end a paragraph; a heading starting with N<digits> sets the note ID.
func paragraphs(file, text string) []passage {
	var out []passage
	note := ""
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, passage{file: file, note: note, text: strings.TrimSuffix(strings.Join(cur, "\n"), "\r")})
			cur = nil
		}
	}
	for _, line := range strings.Split(text, "\n") {
		// The line keeps its CR: a passage is the paragraph byte for byte.
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		if title, ok := heading(strings.TrimSuffix(line, "\r")); ok {
			flush()
			note = noteID(title)
			continue
		}
		cur = append(cur, line)
	}
	flush()
	return out
}

// heading reports whether line is an ATX heading (1 to 6 '#' then a space
// or tab, or nothing) and returns its title.
func heading(line string) (string, bool) {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n == 0 || n > 6 {
		return "", false
	}
	if n == len(line) {
		return "", true
	}
	if line[n] != ' ' && line[n] != '\t' {
		return "", false
	}
	return strings.TrimLeft(line[n:], " \t"), true
}

// noteID returns the N<digits> token that starts a heading title, if any.
func noteID(title string) string {
	if len(title) < 2 || title[0] != 'N' {
		return ""
	}
	i := 1
	for i < len(title) && '0' <= title[i] && title[i] <= '9' {
		i++
	}
	if i == 1 {
		return ""
	}
	if i < len(title) {
		r, _ := utf8.DecodeRuneInString(title[i:])
		if r == '_' || ('a' <= r|0x20 && r|0x20 <= 'z') {
			return ""
		}
	}
	return title[:i]
}

// fold maps every letter to one member of its Unicode simple case folding
// orbit, so that σ, ς and Σ, or k, K and the Kelvin sign, compare equal;
// strings.ToLower would keep ς apart from σ.
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s)
}
