package harness

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listTemplates asks resources/templates/list; a server that answers
// with an error or not at all offers none.
func (s *session) listTemplates(ctx context.Context) *Exchange {
	ex := &Exchange{Check: s.check, Method: "resources/templates/list", Request: "{}"}
	if s.skipStuck(ex) {
		return ex
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
	return ex
}
