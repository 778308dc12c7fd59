package main

import (
	_ "embed"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/boundary"
)

// version is reported to clients in serverInfo.
const version = "0.1.0"

//go:embed instructions.md
var instructions string

// notesServer holds what the MCP handlers need. Each handler is a method.
type notesServer struct {
	root *boundary.Root
	log  *slog.Logger
}

// newServer returns an MCP server for root with its one tool registered.
func newServer(root *boundary.Root, log *slog.Logger) *mcp.Server {
	ns := &notesServer{root: root, log: log}
	s := mcp.NewServer(&mcp.Implementation{
		Name:    "practice-notes",
		Title:   "Practice notes",
		Version: version,
	}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       log,
		// No logging capability: diagnostics go to stderr, not the client.
		Capabilities: &mcp.ServerCapabilities{},
	})
	s.AddTool(searchNotesTool(), ns.searchNotes)
	return s
}
