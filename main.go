// Command practice-notes is a read-only MCP server that searches a folder of
// workshop practice notes, and a small client for trying it.
//
// Usage:
//
//	practice-notes serve  [-root DIR] [-log-level LEVEL]  serve MCP on stdin/stdout
//	practice-notes search [-root DIR] [-json] QUERY      search through a server
//	practice-notes tools  [-root DIR]                    list the server's tools
//	practice-notes config [-client NAME] [-root DIR]     print a client config block
//
// The notes folder is -root, else $PRACTICE_NOTES_ROOT, else ./practice-data.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

const usage = `practice-notes searches a folder of workshop practice notes over MCP.

Usage:
  practice-notes serve  [-root DIR] [-log-level debug|info|warn|error] [-http ADDR]
        Serve MCP on stdin/stdout until stdin closes. Desktop clients run this.
        With -http 127.0.0.1:PORT, serve Streamable HTTP at /mcp instead.
  practice-notes search [-root DIR] [-json] QUERY
        Start a server, call search_notes with QUERY and print the passages.
  practice-notes tools  [-root DIR]
        Start a server and print its tools with their schemas.
  practice-notes config [-client claude|cursor|vscode] [-root DIR]
        Print the block that adds this server to a desktop client's config.

The notes folder is -root, else $PRACTICE_NOTES_ROOT, else ./practice-data.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil:
	case errors.Is(err, errUsage):
		os.Exit(2)
	case errors.Is(err, errReported):
		os.Exit(1)
	default:
		fmt.Fprintf(os.Stderr, "practice-notes: %s\n", visible(err.Error())) // may quote the server
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errUsage
	}
	switch cmd, args := args[0], args[1:]; cmd {
	case "serve":
		return serveCmd(ctx, args, stderr)
	case "search":
		return searchCmd(ctx, args, stdout, stderr)
	case "tools":
		return toolsCmd(ctx, args, stdout, stderr)
	case "config":
		return configCmd(args, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprintf(stderr, "practice-notes: unknown command %q\n\n%s", cmd, usage)
		return errUsage
	}
}
