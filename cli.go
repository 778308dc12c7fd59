package main

// The subcommands and their flags. Each command parses its own flags,
// opens the notes folder through boundary and calls down into the server
// (serve) or into a client session with a server it starts (search, tools).

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/boundary"
	"practice-notes/search"
)

// errUsage marks a command-line mistake; the usage has been printed.
var errUsage = errors.New("usage")

// errReported marks a failure whose explanation is already on stderr.
var errReported = errors.New("reported")

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
		fmt.Fprintf(stderr, "practice-notes: notes folder: %s\n", visible(err.Error()))
		return nil, errReported
	}
	return root, nil
}

// checkedRootDir returns the absolute path of the notes folder, having
// opened it to prove that it can be read now, or explains on stderr why
// not. The commands that start a server elsewhere pass the path on.
func checkedRootDir(flagValue string, stderr io.Writer) (string, error) {
	root, err := openRoot(flagValue, stderr)
	if err != nil {
		return "", err
	}
	defer root.Close()
	return root.Dir(), nil
}

// rootFlag defines the -root flag every command takes.
func rootFlag(fs *flag.FlagSet) *string {
	return fs.String("root", "", "notes `folder` (default $PRACTICE_NOTES_ROOT, else ./practice-data)")
}

func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	err := l.UnmarshalText([]byte(s))
	return l, err
}

// serveCmd serves MCP over stdin and stdout until stdin closes. Only the
// SDK's transport writes to stdout; everything else goes to stderr.
func serveCmd(ctx context.Context, args []string, stderr io.Writer) error {
	fs := newFlags("serve", stderr)
	rootDirFlag := rootFlag(fs)
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
	root, err := openRoot(*rootDirFlag, stderr)
	if err != nil {
		return err
	}
	defer root.Close()
	tuneGC()
	searcher := search.New(root, search.Options{Summaries: true})
	defer searcher.Close() // before the root is closed
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if *httpFlag != "" {
		return serveHTTP(ctx, *httpFlag, newServer(root, searcher, log), log)
	}
	if isTerminal(os.Stdin) {
		fmt.Fprintln(stderr, waitingHint(runtime.GOOS))
	}
	log.Debug("serving", "root", root.Dir(), "version", version)
	err = serveOSStdio(ctx, newServer(root, searcher, log), log)
	if ctx.Err() != nil {
		return nil // stopped by a signal
	}
	return err
}

// clientTimeout bounds a whole client command: start, discovery, call, exit.
const clientTimeout = 30 * time.Second

// connect starts "practice-notes serve" on the notes folder as a child
// process and connects to it over its stdin and stdout, as a desktop client
// would.
func connect(ctx context.Context, rootFlagValue string, stderr io.Writer) (*mcp.ClientSession, error) {
	dir, err := checkedRootDir(rootFlagValue, stderr)
	if err != nil {
		return nil, err
	}
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
	rootDirFlag := rootFlag(fs)
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
	cs, err := connect(ctx, *rootDirFlag, stderr)
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
	rootDirFlag := rootFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "practice-notes tools: unexpected argument %q\nusage: %s\n", fs.Arg(0), usageLines["tools"])
		return errUsage
	}
	ctx, cancel := context.WithTimeout(ctx, clientTimeout)
	defer cancel()
	cs, err := connect(ctx, *rootDirFlag, stderr)
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

// configCmd prints a server block for a desktop client. The block names the
// binary and the notes folder by absolute path, because clients start
// servers from a working directory of their own choosing; it sets no
// environment, since the server needs none.
func configCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("config", stderr)
	clientFlag := fs.String("client", "claude", "client to configure: claude, cursor or vscode")
	rootDirFlag := rootFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "practice-notes config: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}
	cc, ok := clientConfigs(runtime.GOOS)[*clientFlag]
	if !ok {
		fmt.Fprintf(stderr, "practice-notes config: -client %q: use claude, cursor or vscode\n", *clientFlag)
		return errUsage
	}
	// Opening the root proves the folder exists now, rather than when the
	// client first starts the server and shows a less helpful error.
	dir, err := checkedRootDir(*rootDirFlag, stderr)
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding this program's path: %w", err)
	}
	if isGoRunBuild(exe) {
		exe = installedPath()
		fmt.Fprintf(stderr, `practice-notes: this binary is a "go run" build in a temporary or cache
folder that Go may delete at any time, so a client config must not name it.
Install the binary first, from the repository:

    go install .

which puts it at %s (or build it where you like with
"go build -o DIR/practice-notes ." and run DIR/practice-notes config).
The block below names the installed path.

`, visible(exe))
	}
	block, err := configBlock(cc, exe, dir)
	if err != nil {
		return err
	}
	// The paths are the user's own, but a folder name can hold a
	// bidirectional override as easily as a note can.
	if _, err := fmt.Fprintf(stdout, "%s\n", visibleJSON(block)); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "practice-notes: add the %q entry above to %s.\n", serverName, cc.where)
	return nil
}

// The collector is paced by a soft memory limit more than by the growth of
// the heap. The heap a server keeps is bounded (summaries take at most
// 10 MiB, however many notes; see search.Options) and a call's own
// memory follows the number of notes listed, at most boundary.MaxEntries.
// With the default pacing (GOGC=100) a call over thousands of notes
// collects several times while it runs, and the heap may still grow to
// twice what is live. Collecting only when the heap has grown fivefold, or
// reached memoryLimit, spares a call most collections, and the limit keeps
// the resident size flat as the folder grows: the binary's own pages (about
// 9 MiB) plus the limit stay under 32 MiB for searches one at a time
// (scripts/memory-bound.sh, which also measures calls at once). Below
// 22 MiB the collector runs nearly without pause during a steady call on
// 50,000 summarised notes, and calls get slower.
const (
	memoryLimit = 22 << 20
	gcPercent   = 400
)

// tuneGC sets memoryLimit and gcPercent, each unless the operator chose it
// with GOMEMLIMIT or GOGC.
func tuneGC() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(memoryLimit)
	}
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
}
