package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestConfigBlock(t *testing.T) {
	tests := []struct {
		client string
		want   string
	}{
		{"claude", `{
  "mcpServers": {
    "practice-notes": {
      "command": "/opt/bin/practice-notes",
      "args": [
        "serve",
        "-root",
        "/home/learner/notes & more"
      ]
    }
  }
}`},
		{"cursor", `{
  "mcpServers": {
    "practice-notes": {
      "command": "/opt/bin/practice-notes",
      "args": [
        "serve",
        "-root",
        "/home/learner/notes & more"
      ]
    }
  }
}`},
		{"vscode", `{
  "servers": {
    "practice-notes": {
      "type": "stdio",
      "command": "/opt/bin/practice-notes",
      "args": [
        "serve",
        "-root",
        "/home/learner/notes & more"
      ]
    }
  }
}`},
	}
	for _, tt := range tests {
		got, err := configBlock(clientConfigs(runtime.GOOS)[tt.client], "/opt/bin/practice-notes", "/home/learner/notes & more")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, string(got)); diff != "" {
			t.Errorf("%s block mismatch (-want +got):\n%s", tt.client, diff)
		}
	}
}

func TestIsGoRunBuild(t *testing.T) {
	tmp := os.TempDir()
	cache := filepath.Join(t.TempDir(), "gocache")
	t.Setenv("GOCACHE", cache)
	tests := []struct {
		path string
		want bool
	}{
		{filepath.Join(tmp, "go-build1234", "b001", "exe", "practice-notes"), true},
		{filepath.Join(tmp, "go-build", "practice-notes"), true},
		{filepath.Join(tmp, "practice-notes"), false},
		{filepath.Join(tmp, "bin", "go-build1", "practice-notes"), false},
		{"/usr/local/bin/practice-notes", false},
		{filepath.Join(tmp, "..", "go-build1", "practice-notes"), false},
		{filepath.Join(cache, "53", "5372-d", "practice-notes"), true},
		{filepath.Join(t.TempDir(), "bin", "practice-notes"), false},
	}
	for _, tt := range tests {
		if got := isGoRunBuild(tt.path); got != tt.want {
			t.Errorf("isGoRunBuild(%q) = %v; want %v", tt.path, got, tt.want)
		}
	}
}

// Each client's config file is named as that client documents it on each
// system, whichever system the test runs on.
func TestClientConfigWhere(t *testing.T) {
	tests := []struct {
		goos, client, want string
	}{
		{"darwin", "claude", "~/Library/Application Support/Claude/claude_desktop_config.json, then restart Claude Desktop"},
		{"windows", "claude", `%APPDATA%\Claude\claude_desktop_config.json, then restart Claude Desktop`},
		{"linux", "claude", "the Claude Desktop config file (Settings > Developer > Edit Config), then restart Claude Desktop"},
		{"darwin", "cursor", "~/.cursor/mcp.json (all projects) or .cursor/mcp.json (one project)"},
		{"windows", "cursor", `%USERPROFILE%\.cursor\mcp.json (all projects) or .cursor\mcp.json (one project)`},
		{"linux", "cursor", "~/.cursor/mcp.json (all projects) or .cursor/mcp.json (one project)"},
		{"darwin", "vscode", `.vscode/mcp.json in the workspace, or the file opened by the command "MCP: Open User Configuration" (by default ~/Library/Application Support/Code/User/mcp.json)`},
		{"windows", "vscode", `.vscode/mcp.json in the workspace, or the file opened by the command "MCP: Open User Configuration" (by default %APPDATA%\Code\User\mcp.json)`},
		{"linux", "vscode", `.vscode/mcp.json in the workspace, or the file opened by the command "MCP: Open User Configuration" (by default ~/.config/Code/User/mcp.json)`},
	}
	for _, tt := range tests {
		if got := clientConfigs(tt.goos)[tt.client].where; got != tt.want {
			t.Errorf("%s on %s: %q; want %q", tt.client, tt.goos, got, tt.want)
		}
	}
}

func TestConfigCommandErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-folder")
	tests := []struct {
		args    []string
		wantErr string
	}{
		{[]string{"-client", "zed"}, `-client "zed": use claude, cursor or vscode`},
		{[]string{"-root", missing}, missing + " does not exist"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), append([]string{"config"}, tt.args...), &stdout, &stderr)
		if err == nil || !strings.Contains(stderr.String(), tt.wantErr) || stdout.Len() != 0 {
			t.Errorf("config %v: err %v, stdout %q, stderr %q; want an error saying %q", tt.args, err, stdout.String(), stderr.String(), tt.wantErr)
		}
	}
}

// The block printed by the installed binary starts a working server when
// a client runs it exactly as written, from an unrelated working directory
// and with no environment.
func TestConfigBlockRuns(t *testing.T) {
	bin := binary(t)
	cmd := exec.Command(bin, "config", "-client", "claude", "-root", "practice-data")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("config: %v\n%s", err, stderr.String())
	}
	var cfg struct {
		MCPServers map[string]struct {
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(out, &cfg); err != nil {
		t.Fatalf("config output is not JSON: %v\n%s", err, out)
	}
	entry, ok := cfg.MCPServers["practice-notes"]
	if !ok || len(cfg.MCPServers) != 1 {
		t.Fatalf("config output: %s", out)
	}
	absRoot, err := filepath.Abs("practice-data")
	if err != nil {
		t.Fatal(err)
	}
	if entry.Command != bin || !filepath.IsAbs(entry.Command) || entry.Env != nil {
		t.Errorf("command %q, env %v; want %q and no env", entry.Command, entry.Env, bin)
	}
	if diff := cmp.Diff([]string{"serve", "-root", absRoot}, entry.Args); diff != "" {
		t.Errorf("args mismatch (-want +got):\n%s", diff)
	}
	if strings.Contains(stderr.String(), "go run") {
		t.Errorf("an installed binary was taken for a go run build: %s", stderr.String())
	}

	server := exec.Command(entry.Command, entry.Args...)
	server.Dir = t.TempDir()
	server.Env = []string{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "config-test", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: server, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_notes", Arguments: map[string]any{"query": "sign-in"}})
	if err != nil || res.IsError || !strings.Contains(resultText(res), `"note_id":"N2"`) {
		t.Errorf("search through the configured server: %+v, %v", res, err)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if server.ProcessState == nil || !server.ProcessState.Exited() || server.ProcessState.ExitCode() != 0 {
		t.Errorf("server did not exit cleanly after stdin closed: %v", server.ProcessState)
	}
}

// Run through "go run", the command says it is a temporary build, explains
// how to install, and names the installed path in the block.
func TestConfigGoRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with go run")
	}
	cmd := exec.Command("go", "run", ".", "config", "-root", "practice-data")
	gobin := filepath.Join(t.TempDir(), "bin")
	cmd.Env = append(os.Environ(), "GOBIN="+gobin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run . config: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), `a "go run" build`) || !strings.Contains(stderr.String(), "go install .") {
		t.Errorf("stderr does not explain the go run build:\n%s", stderr.String())
	}
	want, err := json.Marshal(filepath.Join(gobin, exeName("practice-notes")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"command": `+string(want)) {
		t.Errorf("block does not name the installed path:\n%s", out)
	}
}
