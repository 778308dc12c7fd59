// Command go is a practice-notes MCP server written as a learner might, on
// the official Go SDK: a raw tool handler with text results only (no
// outputSchema, no structuredContent), one content block per passage, and a
// log line on stderr for every query. The acceptance harness's own tests run
// it with `go run .`; -defect switches on one mistake learners make.
//
//	go run . -root DIR [-delay 300ms] [-defect NAME]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	fileLimit   = 102400
	maxQuery    = 200
	maxPassages = 10
)

var (
	root   = flag.String("root", os.Getenv("PRACTICE_NOTES_ROOT"), "practice-data directory")
	delay  = flag.Duration("delay", 0, "wait this long in every call")
	defect = flag.String("defect", "", "case-sensitive, map-order, write-home, startswith-root, stop-unreadable, line-scanner")
)

type passage struct {
	file, note, text string
	line             int
}

var headRe = regexp.MustCompile(`^#{1,6}[ \t]`)
var noteRe = regexp.MustCompile(`^#{1,6}[ \t]+(N\d+)\b`)

func main() {
	flag.Parse()
	log.SetOutput(os.Stderr)
	abs, err := filepath.Abs(*root)
	if err != nil || *root == "" {
		log.Fatal("usage: go run . -root DIR")
	}
	if abs, err = filepath.EvalSymlinks(abs); err != nil {
		log.Fatal(err)
	}
	log.Printf("serving %s (defect %q)", abs, *defect)
	srv := mcp.NewServer(&mcp.Implementation{Name: "go-learner-notes", Version: "0.1"}, nil)
	srv.AddTool(&mcp.Tool{
		Name:        "search_notes",
		Description: "Search the practice notes for a phrase, ignoring capitalisation.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","maxLength":200}},"required":["query"],"additionalProperties":false}`),
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		time.Sleep(*delay)
		var in map[string]any
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return textError("arguments must be an object"), nil
		}
		q, ok := in["query"].(string)
		switch {
		case len(in) != 1 || !ok:
			return textError("search_notes takes exactly one argument, query, a string"), nil
		case strings.TrimSpace(q) == "":
			return textError("query must not be empty"), nil
		case utf8.RuneCountInString(q) > maxQuery:
			return textError(fmt.Sprintf("query is too long: %d characters, the limit is %d", utf8.RuneCountInString(q), maxQuery)), nil
		}
		log.Printf("search_notes query=%q", q)
		if *defect == "write-home" {
			home, _ := os.UserHomeDir()
			f, err := os.OpenFile(filepath.Join(home, ".go-notes-history"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err == nil {
				fmt.Fprintln(f, q)
				f.Close()
			}
		}
		found := search(abs, q)
		if len(found) == 0 {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("No passage matched %q.", q)}}}, nil
		}
		res := &mcp.CallToolResult{}
		for i, p := range found {
			if i == maxPassages {
				res.Content = append(res.Content, &mcp.TextContent{Text: fmt.Sprintf("%d more passages not shown (limit %d).", len(found)-maxPassages, maxPassages)})
				break
			}
			label := p.file
			if p.note != "" {
				label += " " + p.note
			}
			res.Content = append(res.Content, &mcp.TextContent{Text: fmt.Sprintf("%s (line %d):\n%s", label, p.line, p.text)})
		}
		return res, nil
	})
	var t mcp.Transport = &mcp.StdioTransport{}
	if *defect == "line-scanner" {
		t = &mcp.IOTransport{Reader: scannedStdin(), Writer: os.Stdout}
	}
	if err := srv.Run(context.Background(), t); err != nil {
		log.Printf("server stopped: %v", err)
	}
	log.Print("stdin closed, bye")
}

// scannedStdin is the line-scanner defect: stdin read line by line with a
// bufio.Scanner of the default 64 KiB buffer, which stops at a longer
// line; the server then sees the end of its input and exits.
func scannedStdin() io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			if _, err := pw.Write(append(sc.Bytes(), '\n')); err != nil {
				return
			}
		}
		log.Printf("reading stdin: %v", sc.Err())
		pw.Close()
	}()
	return pr
}

func textError(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

// search walks the root in lexical order and reads only small, singly
// linked, regular UTF-8 files.
func search(root, q string) []passage {
	byFile := map[string][]passage{}
	var order []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		full := p
		info, err := os.Lstat(p)
		if err != nil {
			return nil
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			if *defect != "startswith-root" {
				return nil
			}
			// A learner's check: resolve, then compare prefixes.
			real, err := filepath.EvalSymlinks(p)
			if err != nil || !strings.HasPrefix(real, root) {
				return nil
			}
			full = real
			if info, err = os.Stat(real); err != nil {
				return nil
			}
		}
		if !info.Mode().IsRegular() || info.Size() > fileLimit {
			return nil
		}
		if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
			return nil
		}
		b, err := os.ReadFile(full)
		if err != nil && *defect == "stop-unreadable" {
			return err // a learner's mistake: an error ends the whole walk
		}
		if err != nil || !utf8.Valid(b) || strings.ContainsRune(string(b), 0) {
			return nil
		}
		for _, p := range paragraphs(filepath.ToSlash(rel), string(b)) {
			hay, needle := fold(p.text), fold(q)
			if *defect == "case-sensitive" {
				hay, needle = p.text, q
			}
			if strings.Contains(hay, needle) {
				if _, ok := byFile[p.file]; !ok {
					order = append(order, p.file)
				}
				byFile[p.file] = append(byFile[p.file], p)
			}
		}
		return nil
	})
	var out []passage
	if *defect == "map-order" {
		// A learner's mistake: Go randomises map iteration order.
		for _, ps := range byFile {
			out = append(out, ps...)
		}
		return out
	}
	sort.Strings(order)
	for _, f := range order {
		out = append(out, byFile[f]...)
	}
	return out
}

func paragraphs(file, text string) []passage {
	var out []passage
	note := ""
	var cur []string
	start := 0
	flush := func() {
		if len(cur) > 0 {
			out = append(out, passage{file: file, note: note, line: start, text: strings.TrimSuffix(strings.Join(cur, "\n"), "\r")})
			cur = nil
		}
	}
	for i, line := range strings.Split(text, "\n") {
		// The line keeps its CR: a passage is the paragraph byte for byte.
		if strings.TrimSpace(line) == "" || headRe.MatchString(strings.TrimSuffix(line, "\r")) {
			flush()
			if m := noteRe.FindStringSubmatch(strings.TrimSuffix(line, "\r")); m != nil {
				note = m[1]
			} else if strings.TrimSpace(line) != "" {
				note = ""
			}
			continue
		}
		if len(cur) == 0 {
			start = i + 1
		}
		cur = append(cur, line)
	}
	flush()
	return out
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
