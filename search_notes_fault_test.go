package main

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"practice-notes/boundary"
	"practice-notes/boundary/seam"
)

// Fault tests: each fault must give a clear, bounded answer through the
// real server, with no absolute path or operating-system message in the
// reply or the log. The tests run as root, where chmod 000 does not stop a
// read, so unreadable files and directories, and a file vanishing at an
// exact moment, are made through the fault seam (seam.Options.Faults,
// installed by injectFaults); the other faults are made for real.

// faultSearch runs one search on a server over dir and returns the decoded
// result or the error text, failing on anything that leaks.
func faultSearch(t *testing.T, dir, query string) (res map[string]any, errText string) {
	t.Helper()
	var logBuf lockedBuffer
	log := slog.New(slog.NewTextHandler(&logBuf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	cs := startServer(t, dir, log).client("")
	ctx, cancel := context.WithTimeout(context.Background(), callDeadline+time.Second)
	defer cancel()
	res, errText, err := callSearch(ctx, cs, query)
	if err != nil {
		t.Fatalf("search %q: %v", query, err)
	}
	checkNoLeak(t, fmt.Sprint(res)+errText, dir, "reply")
	checkNoLeak(t, logBuf.String(), dir, "log")
	return res, errText
}

// checkNoLeak fails if s holds an absolute path under dir's parent or an
// operating-system error message.
func checkNoLeak(t *testing.T, s, dir, what string) {
	t.Helper()
	if bad, ok := containsAny(s, filepath.Dir(dir), "permission denied", "no such file or directory",
		"not a directory", "too many levels", "input/output error", "INJECTED"); ok {
		t.Errorf("the %s holds %q:\n%.2000s", what, bad, s)
	}
}

func skippedReasons(res map[string]any) map[string]string {
	out := map[string]string{}
	sk, _ := res["skipped"].([]any)
	for _, s := range sk {
		m, _ := s.(map[string]any)
		out[m["file"].(string)] = m["reason"].(string)
	}
	return out
}

func matchedFiles(res map[string]any) []string {
	var files []string
	for _, m := range resultMatches(res) {
		files = append(files, m["file"].(string))
	}
	return files
}

// injectedErr is an operating-system error carrying an absolute path and
// a marker, as a real one would; neither may reach a reply or a log.
func injectedErr(name string) error {
	return &fs.PathError{Op: "open", Path: "/INJECTED/" + name, Err: fs.ErrPermission}
}

func TestFaultUnreadableFileAndDirectory(t *testing.T) {
	dir := noteTree(t, map[string]string{
		"ok.md":           "needle ok\n",
		"locked.md":       "needle locked\n",
		"closed/inner.md": "needle inner\n",
	})
	injectFaults(t, func(ctx context.Context, op seam.Op, name string) error {
		if (op == seam.ReadFile && name == "locked.md") || (op == seam.ListDir && name == "closed") {
			return injectedErr(name)
		}
		return nil
	})
	res, errText := faultSearch(t, dir, "needle")
	if errText != "" {
		t.Fatalf("tool error %q", errText)
	}
	if got := matchedFiles(res); len(got) != 1 || got[0] != "ok.md" {
		t.Errorf("matches from %q; want ok.md only", got)
	}
	want := map[string]string{"locked.md": "could not be read", "closed": "could not be read"}
	if got := skippedReasons(res); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("skipped %v; want %v", got, want)
	}
	if msg := res["message"].(string); !strings.Contains(msg, "2 files were not searched") {
		t.Errorf("message %q does not count the skipped files", msg)
	}
}

func TestFaultUnreadableRoot(t *testing.T) {
	dir := noteTree(t, map[string]string{"ok.md": "needle\n"})
	injectFaults(t, func(ctx context.Context, op seam.Op, name string) error {
		if op == seam.ListDir && name == "." {
			return injectedErr(name)
		}
		return nil
	})
	_, errText := faultSearch(t, dir, "needle")
	if errText != "search failed: listing the root: could not be read" {
		t.Errorf("tool error %q; want the root named as unreadable", errText)
	}
}

// TestFaultFileVanishes removes a note after the walk listed it and just
// before it is opened (the seam gives the exact moment; the removal is
// real).
func TestFaultFileVanishes(t *testing.T) {
	dir := noteTree(t, map[string]string{"a.md": "needle a\n", "gone.md": "needle gone\n", "z.md": "needle z\n"})
	injectFaults(t, func(ctx context.Context, op seam.Op, name string) error {
		if op == seam.ReadFile && name == "gone.md" {
			os.Remove(filepath.Join(dir, "gone.md"))
		}
		return nil
	})
	res, errText := faultSearch(t, dir, "needle")
	if errText != "" {
		t.Fatalf("tool error %q", errText)
	}
	if got := fmt.Sprint(matchedFiles(res)); got != "[a.md z.md]" {
		t.Errorf("matches from %s; want a.md and z.md", got)
	}
	if got := skippedReasons(res); got["gone.md"] != "no such note" || len(got) != 1 {
		t.Errorf("skipped %v; want gone.md: no such note", got)
	}
}

// TestFaultRootDeleted deletes the whole root while the server runs.
func TestFaultRootDeleted(t *testing.T) {
	dir := noteTree(t, map[string]string{"a.md": "needle\n", "sub/b.md": "needle\n"})
	var logBuf lockedBuffer
	cs := startServer(t, dir, slog.New(slog.NewTextHandler(&logBuf, &slog.HandlerOptions{Level: slog.LevelDebug}))).client("")
	if res, errText, err := callSearch(context.Background(), cs, "needle"); err != nil || errText != "" || len(resultMatches(res)) != 2 {
		t.Fatalf("before: %v %q %v", res, errText, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		res, errText, err := callSearch(context.Background(), cs, "needle")
		if err != nil {
			t.Fatal(err)
		}
		if errText != "search failed: listing the root: could not be read" {
			t.Errorf("after deleting the root: %v %q; want the root named as unreadable", res, errText)
		}
		checkNoLeak(t, errText, dir, "reply")
	}
	checkNoLeak(t, logBuf.String(), dir, "log")
}

// TestFaultRootReplaced moves the root away and puts another folder at its
// path: the server keeps serving the folder it opened and never reads the
// new one.
func TestFaultRootReplaced(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "notes")
	writeNote(t, filepath.Join(dir, "a.md"), "needle original\n")
	cs := startServer(t, dir, nil).client("")
	if err := os.Rename(dir, filepath.Join(base, "moved")); err != nil {
		t.Fatal(err)
	}
	writeNote(t, filepath.Join(dir, "a.md"), "needle REPLACEMENT\n")
	writeNote(t, filepath.Join(dir, "b.md"), "needle REPLACEMENT\n")
	res, errText, err := callSearch(context.Background(), cs, "needle")
	if err != nil || errText != "" {
		t.Fatalf("%v %q", err, errText)
	}
	ms := resultMatches(res)
	if len(ms) != 1 || ms[0]["passage"] != "needle original" {
		t.Errorf("after replacing the root: %v; want only the original note", ms)
	}
}

// TestFaultHugeDirectory searches a folder holding 20,000 entries: the
// answer comes within the deadline, with the matches capped.
func TestFaultHugeDirectory(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 5000
	}
	dir := t.TempDir()
	for i := range n {
		name := fmt.Sprintf("n%05d.md", i)
		text := "nothing\n"
		if i%1000 == 999 {
			text = "needle\n"
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	res, errText := faultSearch(t, dir, "absent phrase")
	if errText != "" || len(resultMatches(res)) != 0 || res["message"] != `No notes matched "absent phrase".` {
		t.Errorf("%v %q", res, errText)
	}
	res, errText = faultSearch(t, dir, "needle")
	if want := min(n/1000, 10); errText != "" || len(resultMatches(res)) != want {
		t.Errorf("%d matches; want %d (%q)", len(resultMatches(res)), want, errText)
	}
	t.Logf("two searches over %d files took %v", n, time.Since(start))
}

// TestFaultTooManyEntries: a folder beyond the walk's entry limit is
// searched up to the limit, and the answer says so.
func TestFaultTooManyEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("makes 50,000 entries")
	}
	dir := t.TempDir()
	// Entries with a name that is not a note's, which the walk counts
	// without opening them.
	for i := range boundary.MaxEntries + 10 {
		if err := makeEntry(filepath.Join(dir, fmt.Sprintf("e%05d.dat", i))); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	res, errText := faultSearch(t, dir, "needle")
	if msg, _ := res["message"].(string); errText != "" || !strings.Contains(msg, "larger than the walk limits") {
		t.Errorf("%v %q; want the message to say the walk stopped", res, errText)
	}
	t.Logf("search over %d entries took %v", boundary.MaxEntries+10, time.Since(start))
}

// TestFaultDeepTree: notes below the depth limit are not searched, and the
// answer says so; notes above it are found.
func TestFaultDeepTree(t *testing.T) {
	dir := t.TempDir()
	p := dir
	for level := 1; level <= boundary.MaxDepth+24; level++ {
		p = filepath.Join(p, "d")
		writeNote(t, filepath.Join(p, "note.md"), fmt.Sprintf("needle at level %d\n", level))
	}
	res, errText := faultSearch(t, dir, "needle")
	if errText != "" {
		t.Fatal(errText)
	}
	if msg := res["message"].(string); !strings.Contains(msg, "larger than the walk limits") || res["truncated"] != true {
		t.Errorf("message %q truncated %v", msg, res["truncated"])
	}
	for _, m := range resultMatches(res) {
		if depth := strings.Count(m["file"].(string), "/"); depth > boundary.MaxDepth {
			t.Errorf("a note %d levels down was searched", depth)
		}
	}
	res, _ = faultSearch(t, dir, fmt.Sprintf("at level %d", boundary.MaxDepth))
	if len(resultMatches(res)) != 1 {
		t.Errorf("the note at the depth limit was not found: %v", res)
	}
	res, _ = faultSearch(t, dir, fmt.Sprintf("at level %d", boundary.MaxDepth+1))
	if len(resultMatches(res)) != 0 {
		t.Errorf("a note below the depth limit was found: %v", res)
	}
}
