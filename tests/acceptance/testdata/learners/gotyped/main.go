// Command gotyped is a practice-notes MCP server written as a learner might,
// on the official Go SDK's typed tool API: mcp.AddTool with an Input and an
// Output struct, so the SDK derives both schemas, validates the arguments and
// fills structuredContent plus a JSON text block. It is a test fixture for
// the acceptance harness; -defect switches on exactly one mistake.
//
//	go run . -root DIR [-defect first-line|no-result-limit|follows-links|lowercase]
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
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	fileLimit   = 102400 // bytes; larger files are skipped unread
	maxQuery    = 200    // characters (runes)
	maxPassages = 10
	maxLinks    = 8 // follows-links defect: how deep it follows linked dirs
)

var (
	rootFlag = flag.String("root", os.Getenv("PRACTICE_NOTES_ROOT"), "practice-data directory (or PRACTICE_NOTES_ROOT)")
	defect   = flag.String("defect", "", "one mistake: first-line, no-result-limit, follows-links, lowercase")
)

var knownDefects = map[string]bool{"": true, "first-line": true, "no-result-limit": true, "follows-links": true, "lowercase": true}

// Input is the tool's argument object; the SDK derives its schema.
type Input struct {
	Query string `json:"query" jsonschema:"the phrase to look for, taken literally and ignoring capitalisation (1 to 200 characters)"`
}

// Output is the tool's structured result.
type Output struct {
	Matches []Match `json:"matches"`
	Message string  `json:"message"`
}

// Match is one passage and where it came from.
type Match struct {
	File    string `json:"file"`
	NoteID  string `json:"noteId,omitempty"`
	Passage string `json:"passage"`
}

func main() {
	flag.Parse()
	log.SetOutput(os.Stderr)
	log.SetPrefix("gotyped: ")
	if *rootFlag == "" {
		log.Fatal("usage: go run . -root DIR [-defect NAME]")
	}
	if !knownDefects[*defect] {
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

	server := mcp.NewServer(&mcp.Implementation{Name: "gotyped-notes", Version: "0.1.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{
		Name:        "search_notes",
		Description: "Search the practice notes for a phrase, ignoring capitalisation. Returns at most 10 passages with their file name and note ID.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, func(ctx context.Context, req *mcp.CallToolRequest, in Input) (*mcp.CallToolResult, Output, error) {
		return searchNotes(root, in)
	})
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Printf("server stopped: %v", err)
	}
	log.Print("stdin closed, bye")
}

// searchNotes is the tool body. A returned error becomes a tool result with
// isError true and the error's text (the SDK does that for typed handlers).
func searchNotes(root string, in Input) (*mcp.CallToolResult, Output, error) {
	q := in.Query
	if n := utf8.RuneCountInString(q); n > maxQuery {
		return nil, Output{}, fmt.Errorf("query is too long: %d characters, the limit is %d", n, maxQuery)
	}
	if strings.TrimSpace(q) == "" {
		return nil, Output{}, errors.New("query must not be empty or only whitespace")
	}
	log.Printf("search_notes query=%q", q)

	files, skipped := collect(root)
	needle := fold(q)
	matches := []Match{}
	for _, f := range files {
		for _, p := range paragraphs(f.text) {
			if !strings.Contains(fold(p.text), needle) {
				continue
			}
			text := p.text
			switch *defect {
			case "first-line":
				// A learner's mistake: only the paragraph's first line.
				text, _, _ = strings.Cut(text, "\n")
			case "lowercase":
				// A learner's mistake: returns the text it compared.
				text = strings.ToLower(text)
			}
			matches = append(matches, Match{File: f.rel, NoteID: p.note, Passage: text})
		}
	}

	total := len(matches)
	var msg string
	switch {
	case total == 0:
		msg = fmt.Sprintf("No notes matched %q.", q)
	case total > maxPassages && *defect != "no-result-limit":
		msg = fmt.Sprintf("%d results, showing the first %d.", total, maxPassages)
		matches = matches[:maxPassages]
	case total == 1:
		msg = "1 result."
	default:
		msg = fmt.Sprintf("%d results.", total)
	}
	switch skipped {
	case 0:
	case 1:
		msg += " 1 file was skipped."
	default:
		msg += fmt.Sprintf(" %d files were skipped.", skipped)
	}
	return nil, Output{Matches: matches, Message: msg}, nil
}

// noteFile is one readable note, named relative to the root.
type noteFile struct {
	rel, text string
}

// collect walks root in lexical order and returns every readable note file
// and how many .md entries it skipped. It never follows symbolic links
// (except with the follows-links defect), reads only small regular files
// with a single hard link, and skips files that are not UTF-8 text.
func collect(root string) ([]noteFile, int) {
	c := &collector{root: root}
	if err := filepath.WalkDir(root, c.visitor(0)); err != nil {
		log.Printf("walk: %v", err)
	}
	return c.files, c.skipped
}

type collector struct {
	root    string
	files   []noteFile
	skipped int
}

func (c *collector) skip(rel, why string) {
	c.skipped++
	log.Printf("skipping %s: %s", rel, why)
}

func (c *collector) visitor(depth int) fs.WalkDirFunc {
	return func(p string, d fs.DirEntry, err error) error {
		rel, rerr := filepath.Rel(c.root, p)
		if rerr != nil {
			rel = filepath.Base(p)
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			if p == c.root && d == nil {
				return err
			}
			c.skip(rel, reason(err))
			return nil
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			if *defect == "follows-links" {
				c.follow(p, rel, depth)
			} else if strings.HasSuffix(d.Name(), ".md") {
				c.skip(rel, "symbolic link")
			}
		case d.IsDir():
		case !strings.HasSuffix(d.Name(), ".md"):
		case !d.Type().IsRegular():
			c.skip(rel, "not a regular file")
		default:
			c.read(p, rel)
		}
		return nil
	}
}

// read opens one regular file without following links.
func (c *collector) read(p, rel string) {
	info, err := os.Lstat(p)
	if err != nil {
		c.skip(rel, reason(err))
		return
	}
	if why := unfit(info); why != "" {
		c.skip(rel, why)
		return
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		c.skip(rel, reason(err))
		return
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !now.Mode().IsRegular() || !os.SameFile(info, now) {
		c.skip(rel, "changed while reading")
		return
	}
	b, err := io.ReadAll(io.LimitReader(f, fileLimit+1))
	if err != nil {
		c.skip(rel, reason(err))
		return
	}
	c.add(rel, b)
}

// follow is the follows-links defect: a learner who resolves symlinks with
// os.Stat and reads, or walks into, wherever they point.
func (c *collector) follow(p, rel string, depth int) {
	info, err := os.Stat(p)
	if err != nil {
		c.skip(rel, reason(err))
		return
	}
	if info.IsDir() {
		if depth < maxLinks {
			// The trailing separator makes WalkDir descend into the link.
			_ = filepath.WalkDir(p+string(filepath.Separator), c.visitor(depth+1))
		}
		return
	}
	if !strings.HasSuffix(p, ".md") {
		return
	}
	if why := unfit(info); why != "" {
		c.skip(rel, why)
		return
	}
	b, err := os.ReadFile(p)
	if err != nil {
		c.skip(rel, reason(err))
		return
	}
	c.add(rel, b)
}

// unfit says why a file must not be read, or "".
func unfit(info fs.FileInfo) string {
	switch {
	case !info.Mode().IsRegular():
		return "not a regular file"
	case info.Size() > fileLimit:
		return fmt.Sprintf("larger than %d bytes", fileLimit)
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
		return "has more than one hard link"
	}
	return ""
}

func (c *collector) add(rel string, b []byte) {
	switch {
	case len(b) > fileLimit:
		c.skip(rel, fmt.Sprintf("larger than %d bytes", fileLimit))
	case bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b):
		c.skip(rel, "not UTF-8 text")
	default:
		c.files = append(c.files, noteFile{rel: rel, text: string(b)})
	}
}

// reason describes err without the absolute path it may carry.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return "cannot be read"
}

type paragraph struct {
	note, text string
}

// paragraphs splits a note file at blank lines and Markdown headings. Each
// paragraph keeps its lines exactly (the CR ending its last line is dropped) and
// the note ID of the nearest heading above it.
func paragraphs(text string) []paragraph {
	var (
		out  []paragraph
		cur  []string
		note string
	)
	end := func() {
		if len(cur) > 0 {
			out = append(out, paragraph{note: note, text: strings.TrimSuffix(strings.Join(cur, "\n"), "\r")})
			cur = nil
		}
	}
	for _, line := range strings.Split(text, "\n") {
		// The line keeps its CR: a passage is the paragraph byte for byte.
		if strings.TrimSpace(line) == "" {
			end()
			continue
		}
		if title, ok := headingTitle(strings.TrimSuffix(line, "\r")); ok {
			end()
			note = leadingNoteID(title)
			continue
		}
		cur = append(cur, line)
	}
	end()
	return out
}

// headingTitle reports whether line is a heading: 1 to 6 '#' followed by a
// space or tab (or nothing), and returns the title after them.
func headingTitle(line string) (string, bool) {
	hashes := len(line) - len(strings.TrimLeft(line, "#"))
	if hashes < 1 || hashes > 6 {
		return "", false
	}
	rest := line[hashes:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", false
	}
	return strings.TrimLeft(rest, " \t"), true
}

// leadingNoteID returns the N<digits> token a heading title starts with.
func leadingNoteID(title string) string {
	if !strings.HasPrefix(title, "N") {
		return ""
	}
	digits := len(title) - 1 - len(strings.TrimLeft(title[1:], "0123456789"))
	if digits == 0 {
		return ""
	}
	id, after := title[:1+digits], title[1+digits:]
	if after != "" {
		r, _ := utf8.DecodeRuneInString(after)
		if r == '_' || ('a' <= r|0x20 && r|0x20 <= 'z') {
			return ""
		}
	}
	return id
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
