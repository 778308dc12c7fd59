package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"

	"practice-notes/search"
)

// serveCmd serves MCP over stdin and stdout until stdin closes. Only the
// SDK's transport writes to stdout; everything else goes to stderr.
func serveCmd(ctx context.Context, args []string, stderr io.Writer) error {
	fs := newFlags("serve", stderr)
	rootFlag := fs.String("root", "", "notes `folder` (default $PRACTICE_NOTES_ROOT, else ./practice-data)")
	levelFlag := fs.String("log-level", "info", "stderr log `level`: debug, info, warn or error")
	httpFlag := fs.String("http", "", "serve Streamable HTTP at http://`ADDR`/mcp instead of stdio; ADDR is loopback, such as 127.0.0.1:8765")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "practice-notes serve: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}
	level, err := parseLevel(*levelFlag)
	if err != nil {
		fmt.Fprintf(stderr, "practice-notes serve: -log-level %q: use debug, info, warn or error\n", *levelFlag)
		return errUsage
	}
	if *httpFlag != "" {
		if err := checkHTTPAddr(*httpFlag); err != nil {
			fmt.Fprintf(stderr, "practice-notes serve: -http %q: %v\n", *httpFlag, err)
			return errUsage
		}
	}
	root, err := openRoot(*rootFlag, stderr)
	if err != nil {
		return err
	}
	defer root.Close()
	tuneGC()
	searcher := search.New(root, search.Options{Summaries: true})
	defer searcher.Close() // before the root is closed
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	threads := newThreadFit()
	if *httpFlag != "" {
		return serveHTTP(ctx, *httpFlag, newServer(root, searcher, threads, log), log)
	}
	if isTerminal(os.Stdin) {
		fmt.Fprintln(stderr, waitingHint(runtime.GOOS))
	}
	log.Debug("serving", "root", root.Dir(), "version", version)
	err = serveOSStdio(ctx, newServer(root, searcher, threads, log), log)
	if ctx.Err() != nil {
		return nil // stopped by a signal
	}
	return err
}
