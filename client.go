package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/search"
)

// clientTimeout bounds a whole client command: start, discovery, call, exit.
const clientTimeout = 30 * time.Second

// connect starts "practice-notes serve" on the notes folder as a child
// process and connects to it over its stdin and stdout, as a desktop client
// would.
func connect(ctx context.Context, rootFlag string, stderr io.Writer) (*mcp.ClientSession, error) {
	root, err := openRoot(rootFlag, stderr)
	if err != nil {
		return nil, err
	}
	dir := root.Dir()
	root.Close()
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this program to start the server: %w", err)
	}
	// At "error", the server's stderr carries only what a person must see
	// (such as a recovered panic); a refused query is reported once, by
	// searchCmd, rather than also as the server's own warn log line.
	cmd := exec.Command(self, "serve", "-root", dir, "-log-level", "error")
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "practice-notes-cli", Version: version}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting to the server: %w", err)
	}
	return cs, nil
}

// findTool discovers the server's tools and returns the one called name.
func findTool(ctx context.Context, cs *mcp.ClientSession, name string) (*mcp.Tool, error) {
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("listing tools: %w", err)
		}
		if tool.Name == name {
			return tool, nil
		}
	}
	return nil, fmt.Errorf("the server has no %s tool", name)
}

func searchCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("search", stderr)
	rootFlag := fs.String("root", "", "notes `folder` (default $PRACTICE_NOTES_ROOT, else ./practice-data)")
	jsonFlag := fs.Bool("json", false, "print the raw tool result as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "practice-notes search: give a phrase to find, for example: practice-notes search sign-in")
		return errUsage
	}
	query := strings.Join(fs.Args(), " ")
	ctx, cancel := context.WithTimeout(ctx, clientTimeout)
	defer cancel()
	cs, err := connect(ctx, *rootFlag, stderr)
	if err != nil {
		return err
	}
	defer cs.Close()
	if _, err := findTool(ctx, cs, "search_notes"); err != nil {
		return err
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{
		Name:      "search_notes",
		Arguments: map[string]any{"query": query},
	})
	if err != nil {
		return fmt.Errorf("calling search_notes: %w", err)
	}
	if *jsonFlag {
		out, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", visibleJSON(out))
	}
	if res.IsError {
		fmt.Fprintf(stderr, "practice-notes: search refused: %s\n", visible(resultText(res)))
		return errReported
	}
	if *jsonFlag {
		return nil
	}
	var result search.Result
	if err := decodeStructured(res, &result); err != nil {
		return err
	}
	printResult(stdout, &result)
	return cs.Close()
}

func toolsCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tools", stderr)
	rootFlag := fs.String("root", "", "notes `folder` (default $PRACTICE_NOTES_ROOT, else ./practice-data)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "practice-notes tools: unexpected argument %q\nusage: %s\n", fs.Arg(0), usageLines["tools"])
		return errUsage
	}
	ctx, cancel := context.WithTimeout(ctx, clientTimeout)
	defer cancel()
	cs, err := connect(ctx, *rootFlag, stderr)
	if err != nil {
		return err
	}
	defer cs.Close()
	n := 0
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("listing tools: %w", err)
		}
		out, err := json.MarshalIndent(tool, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", visibleJSON(out))
		n++
	}
	if n == 0 {
		return errors.New("the server lists no tools")
	}
	return cs.Close()
}

// resultText joins a result's text content into one string.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, " ")
}

// decodeStructured reads a result's structured content into v.
func decodeStructured(res *mcp.CallToolResult, v any) error {
	if res.StructuredContent == nil {
		return errors.New("the server returned no structured content")
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("reading the result: %w", err)
	}
	return nil
}

// printResult prints passages for a person: a header line per passage,
// then the passage indented, exactly as it is in the file except that
// control characters are shown as escapes (see visible).
func printResult(w io.Writer, r *search.Result) {
	for _, m := range r.Matches {
		header := fmt.Sprintf("%s:%d", visible(m.File), m.Line)
		if m.NoteID != "" {
			header += " (" + visible(m.NoteID) + ")"
		}
		if m.Clipped {
			header += " [clipped]"
		}
		fmt.Fprintln(w, header)
		for _, line := range strings.Split(m.Passage, "\n") {
			fmt.Fprintf(w, "    %s\n", visiblePassage(strings.TrimSuffix(line, "\r")))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, visible(r.Message))
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "  not searched: %s (%s)\n", visible(s.File), visible(s.Reason))
	}
}
