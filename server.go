package main

import (
	"context"
	_ "embed"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/boundary"
	"practice-notes/search"
)

// version is reported to clients in serverInfo.
const version = "0.1.0"

//go:embed instructions.md
var instructions string

// notesServer holds what the MCP handlers need. Each handler is a method.
type notesServer struct {
	root     *boundary.Root
	searcher *search.Searcher // of root
	log      *slog.Logger
	listed   noteListing // the last resources/list walk
}

// newServer returns an MCP server for root with its one tool, searching
// with searcher, and the notes as resources.
func newServer(root *boundary.Root, searcher *search.Searcher, log *slog.Logger) *mcp.Server {
	ns := &notesServer{root: root, searcher: searcher, log: log}
	s := mcp.NewServer(&mcp.Implementation{
		Name:    "practice-notes",
		Title:   "Practice notes",
		Version: version,
	}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       slog.New(sdkHandler{log.Handler()}),
		// No logging capability: diagnostics go to stderr, not the client.
		// Resources without listChanged: the list is walked afresh per call.
		Capabilities: &mcp.ServerCapabilities{Resources: &mcp.ResourceCapabilities{}},
	})
	s.AddTool(searchNotesTool(), ns.searchNotes)
	s.AddResourceTemplate(notesTemplate(), ns.readNote)
	// Outermost first: every error is answered by the one table of
	// replies.go; a panic anywhere below is answered; every call is
	// logged, including one refused as busy or as a late initialize;
	// initialize comes first or not at all; work that reads notes is
	// bounded (middleware.go). resources/list is answered from the folder.
	s.AddReceivingMiddleware(
		replyErrors,
		recoverPanics(log),
		ns.audit,
		initializeOnce,
		newCallLimiter(maxRunningCalls, maxWaitingCalls, maxTurnWait).middleware,
		ns.resourcesMiddleware,
	)
	return s
}

// sdkHandler passes the SDK's own session lifecycle messages, which it logs
// at info, only when debug logging is on, so the default level stays quiet.
type sdkHandler struct{ slog.Handler }

func (h sdkHandler) Enabled(ctx context.Context, l slog.Level) bool {
	if l < slog.LevelWarn && !h.Handler.Enabled(ctx, slog.LevelDebug) {
		return false
	}
	return h.Handler.Enabled(ctx, l)
}

func (h sdkHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return sdkHandler{h.Handler.WithAttrs(attrs)}
}

func (h sdkHandler) WithGroup(name string) slog.Handler {
	return sdkHandler{h.Handler.WithGroup(name)}
}
