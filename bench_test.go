package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"practice-notes/boundary"
	"practice-notes/search"
	"practice-notes/tests/corpus"
)

// BenchmarkToolCallSmallNote measures what a client sending calls back to
// back sees from one server on a folder holding one note of 2.5 KB, the
// "one small note" case of scripts/bench.sh: the real server (newServer)
// on a lineTransport over OS pipes, as "serve" runs it on stdio, each
// iteration one tools/call search_notes written and its reply read.
func BenchmarkToolCallSmallNote(b *testing.B) {
	dir := b.TempDir()
	if _, err := corpus.Generate(dir, corpus.Options{Files: 1, Size: 2500, Seed: 1, K: 1}); err != nil {
		b.Fatal(err)
	}
	// A note is summarised only once its times are two seconds old (see
	// boundary.Stamp), as bench.sh's notes are: then an absent phrase is
	// answered without reading the note.
	time.Sleep(2100 * time.Millisecond)
	for _, bc := range []struct {
		name, query string
		want        string // in every reply
	}{
		{"present", corpus.Planted, `"line":`},
		{"absent", corpus.Absent, `"matches":[]`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := startPipeServer(b, dir)
			call := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":%q}}}`+"\n", bc.query)
			s.roundTrip(call)
			time.Sleep(20 * time.Millisecond) // the summary is made between calls
			if reply := s.roundTrip(call); !bytes.Contains(reply, []byte(bc.want)) || bytes.Contains(reply, []byte(`"isError":true`)) {
				b.Fatalf("reply %s does not hold %s", reply, bc.want)
			}
			for b.Loop() {
				s.roundTrip(call)
			}
		})
	}
}

// pipeServer is the real server answering over two OS pipes.
type pipeServer struct {
	tb  testing.TB
	in  *os.File // the server's stdin, written here
	out *bufio.Reader
}

func startPipeServer(tb testing.TB, dir string) *pipeServer {
	tb.Helper()
	root, err := boundary.Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	// Fd puts the server's end in blocking mode, as the standard input
	// os/exec gives a child is: reads then block in read(2) rather than
	// wait in Go's network poller.
	inR.Fd()
	outR, outW, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelError}))
	searcher := search.New(root, search.Options{Summaries: true})
	done := make(chan error, 1)
	go func() {
		done <- serveStdio(context.Background(), newServer(root, searcher, log), newLineTransport(inR, outW, log), log)
		outW.Close()
	}()
	tb.Cleanup(func() {
		inW.Close()
		io.Copy(io.Discard, outR)
		if err := <-done; err != nil {
			tb.Errorf("serveStdio: %v", err)
		}
		searcher.Close()
		root.Close()
		inR.Close()
		outR.Close()
	})
	s := &pipeServer{tb: tb, in: inW, out: bufio.NewReaderSize(outR, 1<<20)}
	s.roundTrip([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}` + "\n"))
	if _, err := inW.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")); err != nil {
		tb.Fatal(err)
	}
	return s
}

// roundTrip writes one request line and returns the reply line.
func (s *pipeServer) roundTrip(line []byte) []byte {
	if _, err := s.in.Write(line); err != nil {
		s.tb.Fatal(err)
	}
	reply, err := s.out.ReadSlice('\n')
	if err != nil {
		s.tb.Fatal(err)
	}
	return reply
}
