package main

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/boundary/fusetest"
)

// resources/read of a note whose read blocks for ever (on a FUSE mount that
// never answers it) is answered by the call's deadline, as many at once as
// there are call slots; ping is answered meanwhile, and once the stuck
// calls are answered their slots serve other reads again.
func TestReadNoteStuckRead(t *testing.T) {
	if !fusetest.InPrivateMountNamespace(t) {
		return
	}
	fs := fusetest.Mount(t, map[string]string{
		"a.md":     "# A\n\nFirst note.\n",
		"stuck.md": "never read\n",
	}, func(name string) bool { return name == "stuck.md" })
	cs := notesSession(t, fs.Dir, nil)
	ctx, cancel := context.WithTimeout(context.Background(), callDeadline+30*time.Second)
	defer cancel()

	start := time.Now()
	errs := make(chan error, maxRunningCalls)
	var wg sync.WaitGroup
	for range maxRunningCalls {
		wg.Go(func() {
			_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: noteURIPrefix + "stuck.md"})
			errs <- err
		})
	}
	time.Sleep(200 * time.Millisecond) // every slot is now held by a stuck read
	if err := cs.Ping(ctx, nil); err != nil {
		t.Errorf("ping while reads are stuck: %v", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("ping while reads are stuck answered after %v", took)
	}
	wg.Wait()
	if took := time.Since(start); took > callDeadline+3*time.Second {
		t.Errorf("stuck reads answered after %v; the call deadline is %v", took, callDeadline)
	}
	close(errs)
	for err := range errs {
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInternalError || werr.Message != "note not read in time (the file system did not answer)" {
			t.Errorf("stuck read: %v; want an internal error saying the note was not read in time", err)
		}
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: noteURIPrefix + "a.md"})
	if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != "# A\n\nFirst note.\n" {
		t.Fatalf("read after the stuck reads were answered: %+v, %v", res, err)
	}
}
