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
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"practice-notes/boundary"
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

// errUsage marks a command-line mistake; the usage has been printed.
var errUsage = errors.New("usage")

// errReported marks a failure whose explanation is already on stderr.
var errReported = errors.New("reported")

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

// usageLines holds each command's one-line usage, printed when its flags
// are wrong.
var usageLines = map[string]string{
	"serve":  "practice-notes serve [-root DIR] [-log-level debug|info|warn|error] [-http ADDR]",
	"search": "practice-notes search [-root DIR] [-json] QUERY",
	"tools":  "practice-notes tools [-root DIR]",
	"config": "practice-notes config [-client claude|cursor|vscode] [-root DIR]",
}

// newFlags returns a flag set for cmd that reports errors on stderr,
// followed by the command's usage line and flags.
func newFlags(cmd string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("practice-notes "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n", usageLines[cmd])
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, honouring flags wherever they appear, so that
// "search sign-in -root DIR" uses DIR rather than searching for "-root DIR".
// Everything after "--" is an argument, which is how to search for a phrase
// that starts with "-". The flag package has already explained any error
// (or printed the help) on stderr.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(flagsFirst(fs, args)); err != nil {
		return errUsage
	}
	return nil
}

// flagsFirst reorders args so that flags, with their values, come before
// the other arguments, separated from them by "--".
func flagsFirst(fs *flag.FlagSet, args []string) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			rest = append(rest, args[i+1:]...)
			i = len(args)
		case len(a) > 1 && a[0] == '-':
			flags = append(flags, a)
			name, _, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
			if !hasValue && takesValue(fs, name) && i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		default:
			rest = append(rest, a)
		}
	}
	return append(append(flags, "--"), rest...)
}

// takesValue reports whether the flag called name is defined and reads the
// next argument as its value, as every flag but a boolean one does.
func takesValue(fs *flag.FlagSet, name string) bool {
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// rootDir picks the notes folder: the flag, else the environment, else
// ./practice-data.
func rootDir(flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	if env := os.Getenv("PRACTICE_NOTES_ROOT"); env != "" {
		return env
	}
	return "practice-data"
}

// openRoot opens the notes folder or explains on stderr, in one line, why
// it cannot.
func openRoot(flagValue string, stderr io.Writer) (*boundary.Root, error) {
	root, err := boundary.Open(rootDir(flagValue))
	if err != nil {
		fmt.Fprintf(stderr, "practice-notes: notes folder: %v\n", err)
		return nil, errReported
	}
	return root, nil
}

func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	err := l.UnmarshalText([]byte(s))
	return l, err
}
