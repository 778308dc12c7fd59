//go:build unix

package main

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"practice-notes/tests/treeswap"
)

// TestStressSearchesDuringSwaps runs 1,000 searches through the real server
// (line transport, limits, handler) while the notes folder keeps changing
// under it (see tests/treeswap: links to outside files and directories,
// a FIFO, a directory, a 10 MB file, a hard link, truncation and growth).
// Every reply must be well formed and come within the deadline, and no
// reply or log line may hold a byte from outside the root or a path
// outside it.
func TestStressSearchesDuringSwaps(t *testing.T) {
	calls := 1000
	if testing.Short() {
		calls = 200
	}
	before := runtime.NumGoroutine()
	s := treeswap.New(t)
	var logBuf lockedBuffer
	log := slog.New(slog.NewTextHandler(&logBuf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	t.Run("searches", func(t *testing.T) {
		cs := startServer(t, s.Root, log).client("")
		s.Start(t)
		allowedFiles := map[string]bool{"stable.md": true, "swap.md": true, "flip.md": true, "grow.md": true, "sub/inner.md": true, "swap.md/x.md": true}
		allowedReasons := map[string]bool{}
		for _, r := range []string{"no such note", "symbolic link (not followed)", "has other hard links",
			"larger than the 100 KiB file limit", "not a regular file", "not text (invalid UTF-8 or NUL bytes)", "could not be read",
			"changed while it was read, 4 times in a row"} {
			allowedReasons[r] = true
		}
		var (
			wg     sync.WaitGroup
			next   atomic.Int64
			failed = make(chan string, 1)
			seen   sync.Map
		)
		report := func(format string, args ...any) {
			select {
			case failed <- fmt.Sprintf(format, args...):
			default:
			}
		}
		for range maxRunningCalls {
			wg.Go(func() {
				for next.Add(1) <= int64(calls) {
					ctx, cancel := context.WithTimeout(context.Background(), callDeadline+time.Second)
					start := time.Now()
					res, errText, err := callSearch(ctx, cs, "needle")
					cancel()
					if d := time.Since(start); d > 2*time.Second {
						report("a search took %v", d)
					}
					if err != nil || errText != "" {
						report("search failed: %v %q", err, errText)
						return
					}
					for _, m := range resultMatches(res) {
						file, _ := m["file"].(string)
						passage, _ := m["passage"].(string)
						if !allowedFiles[file] {
							report("a match from %q", file)
						}
						if (file == "swap.md" || file == "flip.md") && passage+"\n" == treeswap.StableText {
							report("%s: read stable.md through a link", file)
						}
						if _, bad := containsAny(passage, treeswap.Secret, treeswap.Big, s.Path("")); bad {
							report("a passage from outside the root: %.100q", passage)
						}
						seen.Store("match "+file, true)
					}
					skipped, _ := res["skipped"].([]any)
					for _, sk := range skipped {
						m, _ := sk.(map[string]any)
						reason, _ := m["reason"].(string)
						file, _ := m["file"].(string)
						if !allowedReasons[reason] || strings.HasPrefix(file, "/") {
							report("skipped %q for %q", file, reason)
						}
						seen.Store(reason, true)
					}
					if msg, _ := res["message"].(string); msg == "" || strings.Contains(msg, s.Path("")) {
						report("message %q", msg)
					}
				}
			})
		}
		wg.Wait()
		s.Finish(t)
		select {
		case msg := <-failed:
			t.Fatal(msg)
		default:
		}
		var kinds []string
		seen.Range(func(k, _ any) bool { kinds = append(kinds, k.(string)); return true })
		t.Logf("%d searches, %d tree changes; seen: %q", calls, s.Rounds(), kinds)
	})
	if log := logBuf.String(); strings.Contains(log, treeswap.Secret) || strings.Contains(log, treeswap.Big) || strings.Contains(log, s.Path("outside")) {
		t.Errorf("the log holds note text or a path outside the root:\n%.2000s", log)
	}
	waitGoroutines(t, before)
}
