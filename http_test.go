package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/boundary"
	"practice-notes/search"
)

func TestCheckHTTPAddr(t *testing.T) {
	tests := []struct {
		addr    string
		wantErr string
	}{
		{"127.0.0.1:8765", ""},
		{"127.0.0.2:0", ""},
		{"[::1]:8765", ""},
		{"localhost:8765", ""},
		{":8765", "no host means every network interface"},
		{"0.0.0.0:8765", "0.0.0.0 is not a loopback address"},
		{"[::]:8765", ":: is not a loopback address"},
		{"192.168.1.10:8765", "192.168.1.10 is not a loopback address"},
		{"example.com:8765", "example.com is not a loopback address"},
		{"127.0.0.1.nip.io:8765", "127.0.0.1.nip.io is not a loopback address"},
		{"127.0.0.1", "give a loopback address and port"},
		{"127.0.0.1:", "give a port"},
		{"127.0.0.1:65535", ""},
		{"127.0.0.1:99999", `port "99999" is not a number from 0 to 65535`},
		{"127.0.0.1:65536", `port "65536" is not a number`},
		{"localhost:-1", `port "-1" is not a number`},
		{":-1", "no host means every network interface"},
		{"127.0.0.1:8765 ", `port "8765 " is not a number`},
		{"127.0.0.1:+80", `port "+80" is not a number`},
		{"127.0.0.1:http", `port "http" is not a number`},
		{"127.0.0.1 :8765", "127.0.0.1  is not a loopback address"},
		{"\u202e1.0.0.721:80", `\u202e1.0.0.721 is not a loopback address`},
	}
	for _, tt := range tests {
		err := checkHTTPAddr(tt.addr)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("checkHTTPAddr(%q): %v", tt.addr, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("checkHTTPAddr(%q) = %v; want an error containing %q", tt.addr, err, tt.wantErr)
		}
	}
}

// httpNotes serves the practice notes over Streamable HTTP on a loopback
// port and returns the endpoint URL.
func httpNotes(t *testing.T) string {
	t.Helper()
	return httpNotesAt(t, "practice-data")
}

// httpNotesAt is httpNotes for the notes in dir.
func httpNotesAt(t *testing.T, dir string) string {
	t.Helper()
	root, err := boundary.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ts := httptest.NewServer(newHTTPHandler(newServer(root, search.New(root, search.Options{}), log), log))
	t.Cleanup(ts.Close)
	return ts.URL + mcpPath
}

// The Go SDK's HTTP client works at the old and the new protocol revision.
func TestHTTPClient(t *testing.T) {
	endpoint := httpNotes(t)
	for _, v := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		t.Run(v, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "0"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, &mcp.ClientSessionOptions{ProtocolVersion: v})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			tools, err := cs.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != "search_notes" {
				t.Fatalf("tools/list: %+v, %v", tools, err)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_notes", Arguments: map[string]any{"query": "sign-in"}})
			if err != nil || res.IsError || !strings.Contains(resultText(res), `"note_id":"N2"`) {
				t.Errorf("search sign-in: %+v, %v", res, err)
			}
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_notes", Arguments: map[string]any{"query": strings.Repeat("q", 201)}})
			if err != nil || !res.IsError {
				t.Errorf("201-character query: %+v, %v; want isError", res, err)
			}
			rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "practice-notes:///sample-notes.md"})
			if err != nil || len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, "## N2") {
				t.Errorf("read sample-notes.md: %+v, %v", rr, err)
			}
			if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "practice-notes:///%2e%2e/etc/passwd"}); err == nil {
				t.Errorf("traversal read succeeded over HTTP")
			}
		})
	}
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

// Requests that a web page or a rebound DNS name could make are refused
// before they reach the server; a plain local client is served.
func TestHTTPProtections(t *testing.T) {
	endpoint := httpNotes(t)
	port := strings.TrimPrefix(endpoint[strings.LastIndex(endpoint, ":"):], ":")
	port = strings.TrimSuffix(port, mcpPath)
	tests := []struct {
		name    string
		method  string
		path    string
		header  map[string]string
		body    string
		want    int
		wantMsg string
	}{
		{name: "plain local client", want: http.StatusOK},
		{name: "same origin", header: map[string]string{"Origin": "http://127.0.0.1:" + port}, want: http.StatusOK},
		{name: "foreign Host", header: map[string]string{"Host": "evil.example:" + port}, want: http.StatusForbidden, wantMsg: "invalid Host header"},
		{name: "foreign Host without port", header: map[string]string{"Host": "attacker.test"}, want: http.StatusForbidden, wantMsg: "invalid Host header"},
		{name: "foreign Origin", header: map[string]string{"Origin": "http://evil.example"}, want: http.StatusForbidden, wantMsg: "cross-origin"},
		{name: "other local port", header: map[string]string{"Origin": "http://localhost:3000"}, want: http.StatusForbidden, wantMsg: "cross-origin"},
		{name: "null Origin", header: map[string]string{"Origin": "null"}, want: http.StatusForbidden, wantMsg: "cross-origin"},
		{name: "https Origin", header: map[string]string{"Origin": "https://127.0.0.1:" + port}, want: http.StatusForbidden, wantMsg: "cross-origin"},
		{name: "Sec-Fetch-Site cross-site", header: map[string]string{"Sec-Fetch-Site": "cross-site"}, want: http.StatusForbidden, wantMsg: "cross-origin"},
		{name: "foreign Origin on GET", method: http.MethodGet, header: map[string]string{"Origin": "http://evil.example"}, want: http.StatusForbidden, wantMsg: "cross-origin"},
		{name: "oversized body", body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", maxHTTPBody) + `"}}`, want: http.StatusRequestEntityTooLarge},
		{name: "other path", path: "/", want: http.StatusNotFound},
		{name: "GET has no event stream", method: http.MethodGet, want: http.StatusMethodNotAllowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			method, body, url := http.MethodPost, initializeBody, endpoint
			if tt.method != "" {
				method = tt.method
			}
			if tt.body != "" {
				body = tt.body
			}
			if tt.path != "" {
				url = strings.TrimSuffix(endpoint, mcpPath) + tt.path
			}
			req, err := http.NewRequest(method, url, strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range tt.header {
				if k == "Host" {
					req.Host = v
				} else {
					req.Header.Set(k, v)
				}
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.want || !strings.Contains(string(got), tt.wantMsg) {
				t.Errorf("status %d, body %q; want %d with %q", resp.StatusCode, got, tt.want, tt.wantMsg)
			}
			if tt.want == http.StatusOK && !strings.Contains(string(got), `"serverInfo"`) {
				t.Errorf("initialize reply %q has no serverInfo", got)
			}
		})
	}
}

// TestHTTPChecksMessages: a POSTed message gets the same checks as a stdio
// line, and the same error replies.
func TestHTTPChecksMessages(t *testing.T) {
	endpoint := httpNotes(t)
	tests := []struct {
		name, body string
		status     int
		want       string // in the response body
	}{
		{"repeated key", `{"jsonrpc":"2.0","method":"ping","params":{"a":1,"a":2},"id":5}`, http.StatusBadRequest,
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request: key \"a\" appears more than once in one object"}}`},
		{"repeated tool name", `{"jsonrpc":"2.0","id":"t","method":"tools/call","params":{"name":"search_notes","name":"x","arguments":{"query":"a"}}}`, http.StatusBadRequest, `"id":"t","error":{"code":-32600`},
		{"not JSON", `not json CLIENT-TEXT`, http.StatusBadRequest, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not valid JSON"}}`},
		{"form feed", "\f", http.StatusBadRequest, `"code":-32700`},
		{"too deep", `{"jsonrpc":"2.0","id":6,"method":"ping","params":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, http.StatusBadRequest, `"id":6,"error":{"code":-32600`},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, http.StatusBadRequest, `"code":-32600`},
		{"bad response", `{"jsonrpc":"2.0","id":null,"result":{}}`, http.StatusBadRequest, "Bad Request"},
		{"unknown URI", `{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"file:///CLIENT-TEXT"}}`, http.StatusOK, `"id":7,"error":{"code":-32602,"message":"Resource not found"}}`},
		{"ping", `{"jsonrpc":"2.0","id":8,"method":"ping"}`, http.StatusOK, `{"jsonrpc":"2.0","id":8,"result":{}}`},
		// Refused by the SDK before any middleware, and answered by the
		// table as on stdio (TestTransportErrorCodes).
		{"params the SDK cannot decode", `{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"file:///CLIENT-TEXT","_meta":5}}`, http.StatusOK,
			`{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"handling 'resources/read': invalid params: the params do not decode into *mcp.ReadResourceParams"}}`},
		{"an unknown tool with a long name", `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"` + strings.Repeat("t", 5000) + `","arguments":{}}}`, http.StatusOK,
			`{"jsonrpc":"2.0","id":10,"error":{"code":-32602,"message":"unknown tool \"` + strings.Repeat("t", maxErrorMessage-len(`unknown tool "`)) + `…"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status || !strings.Contains(string(got), tt.want) {
				t.Errorf("status %d, body %q; want %d with %q", resp.StatusCode, got, tt.status, tt.want)
			}
			if strings.Contains(string(got), "CLIENT-TEXT") {
				t.Errorf("the reply repeats what the client sent: %q", got)
			}
		})
	}
}

// A port another program holds stops serve with our message, not Go's.
func TestServeHTTPPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	root, err := boundary.Open("practice-data")
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	searcher := search.New(root, search.Options{})
	defer searcher.Close()
	addr := ln.Addr().String()
	err = serveHTTP(context.Background(), addr, newServer(root, searcher, log), log)
	if err == nil || !strings.HasPrefix(err.Error(), `serve -http "`+addr+`": cannot listen there (`) || strings.Contains(err.Error(), "listen tcp") {
		t.Fatalf("serveHTTP on a port in use: %v; want our message without Go's", err)
	}
}

// postMessage POSTs one message to endpoint and returns the status and body.
func postMessage(t *testing.T, endpoint, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(got)
}

// Over HTTP each POST is answered on its own: two calls with one id, sent
// at once, each get their own result.
func TestHTTPReusedIDEachAnswered(t *testing.T) {
	endpoint := httpNotes(t)
	var wg sync.WaitGroup
	bodies := make([]string, 2)
	statuses := make([]int, 2)
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], bodies[i] = postMessage(t, endpoint, callLine(55, "sign-in"))
		}()
	}
	wg.Wait()
	for i, body := range bodies {
		if statuses[i] != 200 || strings.Count(body, `"id":55,"result":`) != 1 || strings.Contains(body, `"error"`) {
			t.Errorf("POST %d: status %d, body %.300q; want one result for id 55", i, statuses[i], body)
		}
	}
}
