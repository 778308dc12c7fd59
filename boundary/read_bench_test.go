package boundary

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"practice-notes/boundary/seam"
)

// BenchmarkReadNotes measures reading 100 notes of a walk, as a search
// does, into one reused buffer: notes of 300 bytes and of 20 KB, each
// either cold (changed longer ago than the hot window, as nearly every note
// is) or hot (changed within it, so read twice and compared). Run it with
//
//	go test -run '^$' -bench ReadNotes -benchmem ./boundary/
func BenchmarkReadNotes(b *testing.B) {
	for _, size := range []int{300, 20000} {
		dir := b.TempDir()
		line := "a line of a note to read, the same in every note\n"
		text := []byte(strings.Repeat(line, size/len(line)+1)[:size])
		for i := range 100 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("note-%03d.md", i)), text, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		for _, heat := range []struct {
			name string
			hot  time.Duration
		}{{"cold", time.Nanosecond}, {"hot", time.Hour}} {
			b.Run(fmt.Sprintf("%dB/%s", size, heat.name), func(b *testing.B) {
				r, err := Open(dir, seam.Options{Hot: heat.hot})
				if err != nil {
					b.Fatal(err)
				}
				defer r.Close()
				l, err := r.Walk(context.Background())
				if err != nil || len(l.Notes) != 100 {
					b.Fatalf("Walk = %v notes, %v; want 100", len(l.Notes), err)
				}
				rd := r.NewReader()
				defer rd.Close()
				buf := make([]byte, 0, MaxFileSize+1)
				ctx := context.Background()
				b.SetBytes(int64(100 * size))
				b.ReportAllocs()
				for b.Loop() {
					for _, n := range l.Notes {
						if _, _, err := rd.Read(ctx, n, buf); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}
