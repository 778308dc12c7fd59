// Command goclient drives practice-notes over stdio with the Go SDK's
// client at one protocol revision, starting the server from the config
// block that "practice-notes config -client claude" printed. It is run by
// scripts/interop.sh.
//
// Usage:
//
//	go run ./tests/interop/goclient -protocol 2025-06-18 CONFIG.json
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	protocol := flag.String("protocol", "", "protocol `revision` to ask for, such as 2025-06-18 or 2026-07-28")
	flag.Parse()
	if flag.NArg() != 1 || *protocol == "" {
		fmt.Fprintln(os.Stderr, "usage: goclient -protocol REVISION CONFIG.json")
		os.Exit(2)
	}
	failed, err := run(*protocol, flag.Arg(0))
	if err != nil {
		fmt.Println("FAIL", err)
		failed++
	}
	if failed > 0 {
		os.Exit(1)
	}
}

var passed, failed int

func check(name string, ok bool, detail string) {
	mark := "ok  "
	if ok {
		passed++
	} else {
		mark = "FAIL"
		failed++
	}
	fmt.Printf("%s %s: %s\n", mark, name, detail)
}

func run(protocol, configFile string) (int, error) {
	data, err := os.ReadFile(configFile)
	if err != nil {
		return 0, err
	}
	var cfg struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return 0, fmt.Errorf("reading %s: %w", configFile, err)
	}
	entry, ok := cfg.MCPServers["practice-notes"]
	if !ok {
		return 0, fmt.Errorf("%s has no practice-notes entry", configFile)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(entry.Command, entry.Args...)
	cmd.Dir = "/"
	var stderr strings.Builder
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "interop-go", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		return 0, fmt.Errorf("connect at %s: %w", protocol, err)
	}
	init := cs.InitializeResult()
	check("connect at "+protocol, init != nil && init.ServerInfo.Name == "practice-notes",
		fmt.Sprintf("negotiated %s", init.ProtocolVersion))

	tools, err := cs.ListTools(ctx, nil)
	check("tools/list", err == nil && len(tools.Tools) == 1 && tools.Tools[0].Name == "search_notes", detail(strings.Join(toolNames(tools), ", "), err))

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_notes", Arguments: map[string]any{"query": "sign-in"}})
	check("tools/call search_notes sign-in", err == nil && !res.IsError && strings.Contains(text(res), `"note_id":"N2"`), firstMatch(res, err))

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_notes", Arguments: map[string]any{"query": strings.Repeat("q", 201)}})
	check("201-character query is isError", err == nil && res.IsError, detail(text(res), err))

	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "practice-notes:///sample-notes.md"})
	var note string
	if err == nil && len(rr.Contents) == 1 {
		note = rr.Contents[0].Text
	}
	check("resources/read sample-notes.md", strings.Contains(note, "## N2"), detail(fmt.Sprintf("%d bytes", len(note)), err))
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "practice-notes:///..%2Fetc%2Fpasswd"})
	var werr *jsonrpc.Error
	ok = errors.As(err, &werr) && werr.Code == jsonrpc.CodeInvalidParams && !strings.Contains(werr.Message, "passwd")
	check("resources/read ..%2F refused", ok, fmt.Sprint(err))

	start := time.Now()
	err = cs.Close()
	exited := cmd.ProcessState != nil && cmd.ProcessState.Exited() && cmd.ProcessState.ExitCode() == 0
	check("server exited after stdin closed", err == nil && exited,
		fmt.Sprintf("exit code %d, %v after close", cmd.ProcessState.ExitCode(), time.Since(start).Round(time.Millisecond)))
	fmt.Printf("%d passed, %d failed\n", passed, failed)
	return failed, nil
}

// detail is what a check prints: the error if there is one, else s.
func detail(s string, err error) string {
	if err != nil {
		return err.Error()
	}
	return s
}

func toolNames(res *mcp.ListToolsResult) []string {
	var names []string
	if res != nil {
		for _, t := range res.Tools {
			names = append(names, t.Name)
		}
	}
	return names
}

func text(res *mcp.CallToolResult) string {
	if res == nil || len(res.Content) == 0 {
		return ""
	}
	if t, ok := res.Content[0].(*mcp.TextContent); ok {
		return t.Text
	}
	return ""
}

func firstMatch(res *mcp.CallToolResult, err error) string {
	if err != nil {
		return err.Error()
	}
	var r struct {
		Matches []struct {
			File   string `json:"file"`
			Line   int    `json:"line"`
			NoteID string `json:"note_id"`
		} `json:"matches"`
	}
	if json.Unmarshal([]byte(text(res)), &r) != nil || len(r.Matches) == 0 {
		return text(res)
	}
	m := r.Matches[0]
	return fmt.Sprintf("%s:%d (%s)", m.File, m.Line, m.NoteID)
}
