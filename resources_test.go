package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/boundary"
	"practice-notes/boundary/seam"
	"practice-notes/search"
)

// notesSession connects an in-process client to a server on dir whose
// stderr log goes to log (nil discards it).
func notesSession(t *testing.T, dir string, log *slog.Logger) *mcp.ClientSession {
	t.Helper()
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	root, err := boundary.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return notesSessionOn(t, root, log)
}

// notesSessionOn is notesSession on a root already open.
func notesSessionOn(t *testing.T, root *boundary.Root, log *slog.Logger) *mcp.ClientSession {
	t.Helper()
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := newServer(root, search.New(root, search.Options{}), log).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "resources-test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// secretText is the content of files outside the root; no reply may hold it.
const secretText = "SECRET outside the notes folder"

// resourceFixture makes base/notes, the root, next to base/outside, which
// holds a note-named secret the root links to in several ways.
// deepNote is one directory deeper than a walk goes.
var deepNote = strings.Repeat("d/", boundary.MaxDepth+1) + "deep.md"

func resourceFixture(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "notes")
	outside = filepath.Join(base, "outside")
	writeNote(t, filepath.Join(outside, "secret.md"), secretText)
	writeNote(t, filepath.Join(root, "a.md"), "# A\n\nFirst note.\n")
	writeNote(t, filepath.Join(root, "sub", "b.txt"), "Second note.\n")
	writeNote(t, filepath.Join(root, "with space é.md"), "Third note.\n")
	if nameAllowed("what?#.md") {
		writeNote(t, filepath.Join(root, "what?#.md"), "Fourth note.\n")
	}
	writeNote(t, filepath.Join(root, "100%.md"), "Not offered: noteName refuses a % after decoding.\n")
	writeNote(t, filepath.Join(root, "big.md"), strings.Repeat("x", boundary.MaxFileSize+1))
	writeNote(t, filepath.Join(root, "image.png"), "not a note")
	// Not notes by the walk's rule, so not readable either.
	writeNote(t, filepath.Join(root, ".hidden.md"), "Hidden note.\n")
	writeNote(t, filepath.Join(root, ".private", "diary.md"), "Private diary.\n")
	writeNote(t, filepath.Join(root, filepath.FromSlash(deepNote)), "Below the walk limit.\n")
	for link, target := range map[string]string{
		"link.md":        filepath.Join(outside, "secret.md"),
		"inside-link.md": "a.md",
		"linkdir":        outside,
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root, outside
}

func TestListNotes(t *testing.T) {
	root, _ := resourceFixture(t)
	cs := notesSession(t, root, nil)
	ctx := context.Background()
	res, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	type entry struct{ Name, URI, MIMEType string }
	var got []entry
	for _, r := range res.Resources {
		got = append(got, entry{r.Name, r.URI, r.MIMEType})
	}
	// Symbolic links, the non-note, the note over the size limit (refused
	// by the walk, as a read would refuse it) and the name holding "%" are
	// left out.
	want := []entry{
		{"a.md", "practice-notes:///a.md", "text/markdown; charset=utf-8"},
		{"sub/b.txt", "practice-notes:///sub/b.txt", "text/plain; charset=utf-8"},
		{"what?#.md", "practice-notes:///what%3F%23.md", "text/markdown; charset=utf-8"},
		{"with space é.md", "practice-notes:///with%20space%20%C3%A9.md", "text/markdown; charset=utf-8"},
	}
	want = slices.DeleteFunc(want, func(e entry) bool { return !nameAllowed(e.Name) })
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resources/list mismatch (-want +got):\n%s", diff)
	}
	if res.NextCursor != "" {
		t.Errorf("NextCursor = %q for a short list", res.NextCursor)
	}
	// Every listed note reads back byte for byte.
	for _, r := range res.Resources {
		rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.URI})
		if err != nil {
			t.Errorf("read %s: %v", r.URI, err)
			continue
		}
		file, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(r.Name)))
		if err != nil {
			t.Fatal(err)
		}
		if len(rr.Contents) != 1 || rr.Contents[0].Text != string(file) || rr.Contents[0].URI != r.URI ||
			rr.Contents[0].MIMEType != r.MIMEType {
			t.Errorf("read %s = %+v; want the file's text", r.URI, rr.Contents)
		}
	}
}

// A note added while the server runs is listed on the next call.
func TestListNotesIsFresh(t *testing.T) {
	root := t.TempDir()
	writeNote(t, filepath.Join(root, "a.md"), "a")
	cs := notesSession(t, root, nil)
	writeNote(t, filepath.Join(root, "b.md"), "b")
	res, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Resources) != 2 {
		t.Errorf("listed %d notes, want 2", len(res.Resources))
	}
}

// Listing every page costs about one walk, not one per page: the
// directories listed while a client pages through 2,500 notes in five
// folders are counted, against those one walk lists.
func TestListEveryPageCostsOneWalk(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for d := range 5 {
		if err := os.Mkdir(filepath.Join(dir, fmt.Sprintf("f%d", d)), 0o755); err != nil {
			t.Fatal(err)
		}
		for i := range 500 {
			name := fmt.Sprintf("f%d/n%03d.md", d, i)
			writeNote(t, filepath.Join(dir, filepath.FromSlash(name)), "a note")
			want = append(want, name)
		}
	}
	var lists atomic.Int64
	root, err := boundary.Open(dir, seam.Options{Faults: func(_ context.Context, op seam.Op, _ string) error {
		if op == seam.ListDir {
			lists.Add(1)
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	ctx := context.Background()
	if _, err := root.Walk(ctx); err != nil {
		t.Fatal(err)
	}
	oneWalk := lists.Swap(0)
	cs := notesSessionOn(t, root, nil)
	var got []string
	pages := 0
	for cursor := ""; ; pages++ {
		res, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Resources {
			got = append(got, r.Name)
		}
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notes listed over %d pages (-want +got):\n%s", pages+1, diff)
	}
	if n := lists.Load(); n > 2*oneWalk {
		t.Errorf("listing %d pages listed %d directories; one walk lists %d", pages+1, n, oneWalk)
	}
}

func TestReadSampleNote(t *testing.T) {
	cs := notesSession(t, "practice-data", nil)
	ctx := context.Background()
	tmpl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tmpl.ResourceTemplates) != 1 || tmpl.ResourceTemplates[0].URITemplate != "practice-notes:///{+path}" {
		t.Errorf("templates = %+v", tmpl.ResourceTemplates)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "practice-notes:///sample-notes.md"})
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(filepath.Join("practice-data", "sample-notes.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Contents) != 1 || res.Contents[0].Text != string(file) {
		t.Errorf("read sample-notes.md: %+v", res.Contents)
	}
	caps := cs.InitializeResult().Capabilities
	if caps.Resources == nil || caps.Resources.ListChanged || caps.Resources.Subscribe {
		t.Errorf("resources capability = %+v; want present, without listChanged or subscribe", caps.Resources)
	}
}

// Every traversal form is refused with a JSON-RPC error whose message names
// neither the URI nor any path outside the root.
func TestReadNoteRefusals(t *testing.T) {
	root, outside := resourceFixture(t)
	cs := notesSession(t, root, nil)
	const (
		invalid  = "note refused: not a relative path inside the root"
		notFound = "Resource not found"
	)
	tests := []struct {
		name, uri string
		code      int64
		message   string
	}{
		{"dot-dot", "practice-notes:///../outside/secret.md", jsonrpc.CodeInvalidParams, invalid},
		{"dot-dot inside", "practice-notes:///sub/../../outside/secret.md", jsonrpc.CodeInvalidParams, invalid},
		{"dot-dot only", "practice-notes:///..", jsonrpc.CodeInvalidParams, invalid},
		{"absolute", "practice-notes:////etc/passwd", jsonrpc.CodeInvalidParams, invalid},
		{"absolute outside", "practice-notes:///" + filepath.ToSlash(filepath.Join(outside, "secret.md")), jsonrpc.CodeInvalidParams, invalid},
		{"encoded absolute", "practice-notes:///%2Fetc%2Fpasswd", jsonrpc.CodeInvalidParams, invalid},
		{"drive letter", "practice-notes:///C:/secret.md", jsonrpc.CodeInvalidParams, invalid},
		{"dot-dot %2F", "practice-notes:///..%2Foutside%2Fsecret.md", jsonrpc.CodeInvalidParams, invalid},
		{"dot-dot %2f lower case", "practice-notes:///..%2foutside%2fsecret.md", jsonrpc.CodeInvalidParams, invalid},
		{"%2e%2e", "practice-notes:///%2e%2e/outside/secret.md", jsonrpc.CodeInvalidParams, invalid},
		{"%2E%2E%2F", "practice-notes:///%2E%2E%2Foutside%2Fsecret.md", jsonrpc.CodeInvalidParams, invalid},
		{"mixed .%2e", "practice-notes:///.%2e/outside/secret.md", jsonrpc.CodeInvalidParams, invalid},
		{"backslash %5C", "practice-notes:///..%5Coutside%5Csecret.md", jsonrpc.CodeInvalidParams, invalid},
		{"NUL %00", "practice-notes:///a.md%00.md", jsonrpc.CodeInvalidParams, invalid},
		{"double encoded %252e", "practice-notes:///%252e%252e%252Foutside%252Fsecret.md", jsonrpc.CodeInvalidParams,
			"invalid note URI: % remains after decoding (double encoding is refused)"},
		{"double encoded ..%252F", "practice-notes:///..%252Foutside%252Fsecret.md", jsonrpc.CodeInvalidParams,
			"invalid note URI: % remains after decoding (double encoding is refused)"},
		// The SDK's template does not match a malformed escape.
		{"malformed escape", "practice-notes:///%zz.md", jsonrpc.CodeInvalidParams, notFound},
		{"invalid UTF-8", "practice-notes:///%ff.md", jsonrpc.CodeInvalidParams, "invalid note URI: the path is not valid UTF-8"},
		{"query", "practice-notes:///a.md?x=..%2F", jsonrpc.CodeInvalidParams, "invalid note URI: a query or fragment is not allowed"},
		{"fragment", "practice-notes:///a.md#..%2F", jsonrpc.CodeInvalidParams, "invalid note URI: a query or fragment is not allowed"},
		{"symlink out", "practice-notes:///link.md", jsonrpc.CodeInvalidParams, "note refused: symbolic link (not followed)"},
		{"symlink in", "practice-notes:///inside-link.md", jsonrpc.CodeInvalidParams, "note refused: symbolic link (not followed)"},
		{"symlinked directory", "practice-notes:///linkdir/secret.md", jsonrpc.CodeInvalidParams, "note refused: symbolic link (not followed)"},
		{"oversized", "practice-notes:///big.md", jsonrpc.CodeInvalidParams, "note refused: larger than the 100 KiB file limit"},
		{"not a note", "practice-notes:///image.png", jsonrpc.CodeInvalidParams, "note refused: not a note (only .md, .markdown and .txt files are read)"},
		{"hidden note", "practice-notes:///.hidden.md", jsonrpc.CodeInvalidParams, "note refused: hidden (a name on its path starts with a dot)"},
		{"note in a hidden folder", "practice-notes:///.private/diary.md", jsonrpc.CodeInvalidParams, "note refused: hidden (a name on its path starts with a dot)"},
		{"deeper than the walk", "practice-notes:///" + deepNote, jsonrpc.CodeInvalidParams, "note refused: deeper than the walk limit of 16 directories"},
		{"directory", "practice-notes:///sub", jsonrpc.CodeInvalidParams, "note refused: not a note (only .md, .markdown and .txt files are read)"},
		{"empty", "practice-notes:///", jsonrpc.CodeInvalidParams, invalid},
		{"missing", "practice-notes:///missing.md", jsonrpc.CodeInvalidParams, notFound},
		{"percent in a real name", "practice-notes:///100%25.md", jsonrpc.CodeInvalidParams,
			"invalid note URI: % remains after decoding (double encoding is refused)"},
		// Not the notes scheme: the SDK's own not-found reply.
		{"file scheme", "file:///etc/passwd", jsonrpc.CodeInvalidParams, notFound},
		{"authority", "practice-notes://host/a.md", jsonrpc.CodeInvalidParams, notFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: tt.uri})
			var werr *jsonrpc.Error
			if !errors.As(err, &werr) {
				t.Fatalf("read %s = %+v, %v; want a JSON-RPC error", tt.uri, res, err)
			}
			if werr.Code != tt.code || werr.Message != tt.message {
				t.Errorf("read %s: error %d %q; want %d %q", tt.uri, werr.Code, werr.Message, tt.code, tt.message)
			}
			for _, leak := range []string{root, outside, "secret", "passwd", "SECRET", "/etc"} {
				if strings.Contains(werr.Message, leak) {
					t.Errorf("read %s: message %q holds %q", tt.uri, werr.Message, leak)
				}
			}
		})
	}
}

func TestNoteURIRoundTrip(t *testing.T) {
	for _, name := range []string{
		"a.md", "sub/dir/b.txt", "with space.md", "é/ü.markdown", "what?#.md",
		"a+b&c=d;e,f:g@h$i!j'k(l)m*.md", "[brackets].md", "tab\there.md",
	} {
		uri := noteURI(name)
		got, err := noteName(uri)
		if err != nil || got != name {
			t.Errorf("noteName(noteURI(%q)) = %q, %v; URI %q", name, got, err, uri)
		}
		// The SDK routes a read to the template only if it matches.
		if !listable(name) {
			t.Errorf("listable(%q) = false", name)
		}
	}
}

// The SDK's template matching decides which URIs reach readNote; this pins
// that every URI noteURI makes is routed there rather than refused as
// unknown.
func TestNoteURIsMatchTemplate(t *testing.T) {
	root := t.TempDir()
	names := []string{"a+b&c=d;e,f:g@h$i!j'k(l)m*.md", "[x].md", "é.md", "sp ace.md", "q?.md"}
	names = slices.DeleteFunc(names, func(n string) bool { return !nameAllowed(n) })
	for _, n := range names {
		writeNote(t, filepath.Join(root, n), n)
	}
	cs := notesSession(t, root, nil)
	for _, n := range names {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: noteURI(n)})
		if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != n {
			t.Errorf("read %q (%s) = %+v, %v", n, noteURI(n), res, err)
		}
	}
}

func TestPageNotes(t *testing.T) {
	names := []string{"a.md", "b.md", "c%.md", "c.md", "d.md", "e.md"}
	var pages [][]string
	cursor := ""
	for range 10 {
		page, next, err := pageNotes(names, cursor, 2)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, page)
		if next == "" {
			break
		}
		cursor = next
	}
	want := [][]string{{"a.md", "b.md"}, {"c.md", "d.md"}, {"e.md"}}
	if diff := cmp.Diff(want, pages); diff != "" {
		t.Errorf("pages mismatch (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"!!!", "="} {
		if _, _, err := pageNotes(names, bad, 2); err == nil {
			t.Errorf("pageNotes with cursor %q: no error", bad)
		}
	}
}

// An empty note is read with "text": "", over stdio and HTTP: MCP's
// TextResourceContents requires text, and the SDK alone leaves an empty
// one out. A note with text keeps it, and the result's other keys.
func TestReadEmptyNoteHasText(t *testing.T) {
	dir := noteTree(t, map[string]string{"empty.md": "", "one.md": "x\n"})
	const read = `{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":"practice-notes:///%s"}}`
	t.Run("stdio", func(t *testing.T) {
		s := startServer(t, dir, nil)
		s.initialize()
		for i, tt := range []struct{ name, text string }{{"empty.md", ""}, {"one.md", "x\n"}} {
			s.send(fmt.Sprintf(read, i, tt.name))
			msg := s.next()
			res, _ := msg["result"].(map[string]any)
			contents, _ := res["contents"].([]any)
			if len(contents) != 1 {
				t.Fatalf("read %s: %v", tt.name, msg)
			}
			c, _ := contents[0].(map[string]any)
			text, ok := c["text"]
			if !ok || text != tt.text || c["uri"] != "practice-notes:///"+tt.name || c["mimeType"] == nil || res["cacheScope"] != "private" {
				t.Errorf("read %s: contents %v, result %v; want text %q", tt.name, c, res, tt.text)
			}
		}
	})
	t.Run("http", func(t *testing.T) {
		endpoint := httpNotesAt(t, dir)
		status, body := postMessage(t, endpoint, fmt.Sprintf(read, 1, "empty.md"))
		if status != http.StatusOK || !strings.Contains(body, `"uri":"practice-notes:///empty.md","mimeType":"text/markdown; charset=utf-8","text":""}`) {
			t.Errorf("read empty.md over HTTP: status %d, body %q; want its contents with \"text\":\"\"", status, body)
		}
	})
}

// First pages asked for at once share walks: one runs at a time, and those
// asked for while it runs share the next, so 8 at once cost 2 walks,
// not 8, and each still comes from a walk that started after it was asked
// for. A first page asked for afterwards walks again.
func TestListFirstPagesShareWalks(t *testing.T) {
	dir := noteTree(t, manyNotes(3))
	var walks atomic.Int64
	release := make(chan struct{})
	root, err := boundary.Open(dir, seam.Options{Faults: func(_ context.Context, op seam.Op, name string) error {
		if op == seam.ListDir && name == "." && walks.Add(1) == 1 {
			<-release // the first walk runs until every caller has asked
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	var nl noteListing
	ctx := context.Background()
	const callers = 8
	var wg sync.WaitGroup
	got := make([][]string, callers)
	errs := make([]error, callers)
	var asking atomic.Int64
	ask := func(i int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			asking.Add(1)
			got[i], errs[i] = nl.get(ctx, root, true)
		}()
	}
	// The first caller's walk has started before the others ask: a
	// caller that asks before a walk starts may rightly share it, so
	// asking all at once could cost one walk or two.
	ask(0)
	for walks.Load() < 1 {
		time.Sleep(time.Millisecond)
	}
	for i := 1; i < callers; i++ {
		ask(i)
	}
	// Every other caller has asked before the first walk ends: on a
	// loaded machine a goroutine may start late, so wait for each to be
	// about to ask, then give it time to take its place in line.
	for asking.Load() < callers {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	close(release)
	wg.Wait()
	want := []string{"n0000.md", "n0001.md", "n0002.md"}
	for i := range callers {
		if errs[i] != nil || !slices.Equal(got[i], want) {
			t.Errorf("caller %d: %q, %v; want %q", i, got[i], errs[i], want)
		}
	}
	if n := walks.Load(); n != 2 {
		t.Errorf("%d first pages at once walked %d times; want 2", callers, n)
	}
	writeNote(t, filepath.Join(dir, "n0003.md"), "new")
	names, err := nl.get(ctx, root, true)
	if err != nil || len(names) != 4 || walks.Load() != 3 {
		t.Errorf("a first page asked for afterwards: %q, %v, after %d walks; want 4 notes from a third walk", names, err, walks.Load())
	}
}
