package main

import (
	"encoding/json"
	"go/build"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// serverName is the key the server is filed under in a client's config.
const serverName = "practice-notes"

// stdioServer is one entry of a client's server map. VS Code needs Type;
// Claude Desktop and Cursor infer stdio from Command.
type stdioServer struct {
	Type    string   `json:"type,omitempty"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// clientConfig describes where one client keeps its MCP servers.
type clientConfig struct {
	key   string // top-level key: "mcpServers" or "servers"
	typed bool   // whether entries carry "type": "stdio"
	where string // where the block goes, for the hint on stderr
}

// clientConfigs says where each client keeps its servers on the system goos,
// as each client documents it:
//   - Claude Desktop ships for macOS and Windows only; Settings > Developer >
//     Edit Config opens the file
//     (https://modelcontextprotocol.io/docs/develop/connect-local-servers).
//   - Cursor reads ~/.cursor/mcp.json, %USERPROFILE%\.cursor\mcp.json on
//     Windows, and .cursor/mcp.json in a project
//     (https://cursor.com/docs/mcp).
//   - VS Code reads .vscode/mcp.json in a workspace and mcp.json in the user
//     profile folder, which holds settings.json: %APPDATA%\Code\User,
//     ~/Library/Application Support/Code/User or ~/.config/Code/User for the
//     default profile (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration,
//     https://code.visualstudio.com/docs/configure/settings#_settings-file-locations).
func clientConfigs(goos string) map[string]clientConfig {
	claude := "the Claude Desktop config file (Settings > Developer > Edit Config)"
	cursor := "~/.cursor/mcp.json (all projects) or .cursor/mcp.json (one project)"
	vscodeUser := "~/.config/Code/User/mcp.json"
	switch goos {
	case "darwin":
		claude = "~/Library/Application Support/Claude/claude_desktop_config.json"
		vscodeUser = "~/Library/Application Support/Code/User/mcp.json"
	case "windows":
		claude = `%APPDATA%\Claude\claude_desktop_config.json`
		cursor = `%USERPROFILE%\.cursor\mcp.json (all projects) or .cursor\mcp.json (one project)`
		vscodeUser = `%APPDATA%\Code\User\mcp.json`
	}
	return map[string]clientConfig{
		"claude": {key: "mcpServers", where: claude + ", then restart Claude Desktop"},
		"cursor": {key: "mcpServers", where: cursor + ", then restart Cursor"},
		"vscode": {key: "servers", typed: true, where: ".vscode/mcp.json in the workspace, or the file opened by the command \"MCP: Open User Configuration\" (by default " + vscodeUser + ")"},
	}
}

// configBlock returns the JSON block that runs exe on the notes folder dir.
func configBlock(cc clientConfig, exe, dir string) ([]byte, error) {
	srv := stdioServer{Command: exe, Args: []string{"serve", "-root", dir}}
	if cc.typed {
		srv.Type = "stdio"
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep "&" and "<" in paths readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(map[string]map[string]stdioServer{cc.key: {serverName: srv}}); err != nil {
		return nil, err
	}
	return []byte(strings.TrimSuffix(b.String(), "\n")), nil
}

// isGoRunBuild reports whether exe is a binary that "go run" built: in a
// temporary go-build directory, removed when the program exits, or (since
// Go 1.24) in the build cache, which "go clean -cache" or a cache trim
// removes. Neither is a path to put in a client's config.
func isGoRunBuild(exe string) bool {
	for _, tmp := range []string{os.Getenv("GOTMPDIR"), os.TempDir()} {
		if rel, ok := under(tmp, exe); ok {
			first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
			if strings.HasPrefix(first, "go-build") {
				return true
			}
		}
	}
	caches := []string{os.Getenv("GOCACHE")}
	if dir, err := os.UserCacheDir(); err == nil {
		caches = append(caches, filepath.Join(dir, "go-build"))
	}
	for _, cache := range caches {
		if _, ok := under(cache, exe); ok {
			return true
		}
	}
	return false
}

// under reports whether path is inside dir, and its path relative to dir.
func under(dir, path string) (string, bool) {
	if dir == "" {
		return "", false
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return rel, true
}

// installedPath is where "go install ." puts the binary: $GOBIN, else the
// bin folder of the first GOPATH entry (by default ~/go/bin).
func installedPath() string {
	name := "practice-notes"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if bin := os.Getenv("GOBIN"); bin != "" {
		return filepath.Join(bin, name)
	}
	gopath := filepath.SplitList(build.Default.GOPATH)
	if len(gopath) == 0 {
		return filepath.Join("go", "bin", name)
	}
	return filepath.Join(gopath[0], "bin", name)
}
