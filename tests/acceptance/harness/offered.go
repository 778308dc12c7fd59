package harness

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// templateVarRe is one variable of a URI template: {path}, {+path}, {/path}.
var templateVarRe = regexp.MustCompile(`\{[+#/.;?&]?[A-Za-z0-9_]+\*?\}`)

// offeredURI finds a URI the server itself offered for rel: a listed
// resource, a template with one variable filled with rel, or a resource
// link in a search reply. It returns "" when the server offered none, and
// where the URI came from.
func offeredURI(rel string, list []*mcp.Resource, templates []*mcp.ResourceTemplate, reply *mcp.CallToolResult) (uri, from string) {
	for _, res := range list {
		if res != nil && strings.HasSuffix(res.URI, rel) {
			return res.URI, "resources/list"
		}
	}
	if reply != nil {
		for _, c := range reply.Content {
			switch b := c.(type) {
			case *mcp.ResourceLink:
				if strings.HasSuffix(b.URI, rel) {
					return b.URI, "a resource link in the search reply"
				}
			case *mcp.EmbeddedResource:
				if b.Resource != nil && strings.HasSuffix(b.Resource.URI, rel) {
					return b.Resource.URI, "a resource in the search reply"
				}
			}
		}
	}
	for _, t := range templates {
		if t == nil || len(templateVarRe.FindAllString(t.URITemplate, -1)) != 1 {
			continue
		}
		v := templateVarRe.FindString(t.URITemplate)
		val := rel
		if !strings.HasPrefix(v, "{+") {
			// Simple expansion escapes '/': a template that wants one
			// segment gets the escaped path, as a client would send it.
			val = strings.ReplaceAll(rel, "/", "%2F")
		}
		return strings.Replace(t.URITemplate, v, val, 1), "the template " + t.URITemplate
	}
	return "", ""
}

// listTemplates asks resources/templates/list; a server that answers
// with an error or not at all offers none.
func (s *session) listTemplates(ctx context.Context) []*mcp.ResourceTemplate {
	ex := &Exchange{Check: s.check, Method: "resources/templates/list", Request: "{}"}
	if s.skipStuck(ex) {
		return nil
	}
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	t0, mark := time.Now(), s.wire.mark()
	var list []*mcp.ResourceTemplate
	var err error
	for t, e := range s.cs.ResourceTemplates(cctx, nil) {
		if e != nil {
			err = e
			break
		}
		list = append(list, t)
		if len(list) > 100 {
			break
		}
	}
	if err == nil {
		ex.Reply = marshal(map[string]any{"resourceTemplates": list})
		ex.replyText = ex.Reply
	}
	s.record(ex, t0, mark, cctx, err)
	return list
}
