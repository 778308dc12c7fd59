package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
		{"darwin", "cursor", "~/.cursor/mcp.json (all projects) or .cursor/mcp.json (one project), then restart Cursor"},
		{"windows", "cursor", `%USERPROFILE%\.cursor\mcp.json (all projects) or .cursor\mcp.json (one project), then restart Cursor`},
		{"linux", "cursor", "~/.cursor/mcp.json (all projects) or .cursor/mcp.json (one project), then restart Cursor"},
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

// A folder name holding a bidirectional override, a zero-width space or a
// line separator reaches the terminal escaped: as \u escapes inside the
// block's JSON strings, which a client reads back as the real path, and as
// Go escapes in a message.
func TestConfigEscapesPaths(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "notes\u202etxt.md\u200b\u2028")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skipf("this file system does not take the name: %v", err)
	}
	raw := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return r > '\n' && needsEscape(r) })
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"config", "-root", dir}, &stdout, &stderr); err != nil {
		t.Fatalf("config: %v; stderr:\n%s", err, stderr.String())
	}
	if raw(stdout.String()) || raw(stderr.String()) {
		t.Errorf("config printed a character raw that needsEscape; stdout %q, stderr %q", stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), `notes\u202etxt.md\u200b\u2028"`) {
		t.Errorf("the block does not show the folder's name with \\u escapes:\n%s", stdout.String())
	}
	var block map[string]map[string]stdioServer
	if err := json.Unmarshal(stdout.Bytes(), &block); err != nil {
		t.Fatal(err)
	}
	if got := block["mcpServers"][serverName].Args; len(got) != 3 || !strings.HasSuffix(got[2], string(filepath.Separator)+"notes\u202etxt.md\u200b\u2028") {
		t.Errorf("the block's args %q do not name the folder as it is", got)
	}

	stdout.Reset()
	stderr.Reset()
	missing := filepath.Join(dir, "gone\u202e")
	if err := run(context.Background(), []string{"config", "-root", missing}, &stdout, &stderr); err == nil {
		t.Fatal("config on a missing folder succeeded")
	}
	if raw(stderr.String()) || !strings.Contains(stderr.String(), `gone\u202e does not exist`) {
		t.Errorf("the message about a missing folder is %q; want its name escaped", stderr.String())
	}
}
