package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// fileState is what check 7 compares for every entry under the temp dir,
// inside and outside the root. Symlinks are recorded, not followed.
type fileState struct {
	Kind   string      `json:"kind"` // file, dir, symlink, other
	Mode   fs.FileMode `json:"mode"`
	Size   int64       `json:"size,omitempty"`
	SHA256 string      `json:"sha256,omitempty"`
	Target string      `json:"target,omitempty"`
	MTime  time.Time   `json:"mtime"`
}

type snapshot map[string]fileState

func takeSnapshot(base string) (snapshot, error) {
	snap := snapshot{}
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(base, p)
		if err != nil {
			return err
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		st := fileState{Mode: info.Mode(), MTime: info.ModTime()}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			st.Kind = "symlink"
			if st.Target, err = os.Readlink(p); err != nil {
				return err
			}
		case info.IsDir():
			st.Kind = "dir"
		case info.Mode().IsRegular():
			st.Kind = "file"
			st.Size = info.Size()
			if st.SHA256, err = hashFile(p); err != nil {
				return err
			}
		default:
			st.Kind = "other"
		}
		snap[filepath.ToSlash(rel)] = st
		return nil
	})
	return snap, err
}

func hashFile(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// diffSnapshots lists every created, removed or changed entry.
func diffSnapshots(before, after snapshot) []string {
	var out []string
	for p, b := range before {
		a, ok := after[p]
		if !ok {
			out = append(out, fmt.Sprintf("removed %s (%s)", p, b.Kind))
			continue
		}
		switch {
		case a.Kind != b.Kind:
			out = append(out, fmt.Sprintf("changed %s: kind %s -> %s", p, b.Kind, a.Kind))
		case a.SHA256 != b.SHA256:
			out = append(out, fmt.Sprintf("changed %s: sha256 %.12s… -> %.12s…", p, b.SHA256, a.SHA256))
		case a.Target != b.Target:
			out = append(out, fmt.Sprintf("changed %s: symlink target %q -> %q", p, b.Target, a.Target))
		case a.Mode != b.Mode:
			out = append(out, fmt.Sprintf("changed %s: mode %v -> %v", p, b.Mode, a.Mode))
		case !a.MTime.Equal(b.MTime):
			out = append(out, fmt.Sprintf("changed %s: mtime %s -> %s", p, b.MTime.Format(time.RFC3339Nano), a.MTime.Format(time.RFC3339Nano)))
		}
	}
	for p, a := range after {
		if _, ok := before[p]; !ok {
			out = append(out, fmt.Sprintf("created %s (%s)", p, a.Kind))
		}
	}
	// Created and removed entries first, then content, then metadata.
	rank := func(s string) int {
		switch {
		case strings.HasPrefix(s, "created"), strings.HasPrefix(s, "removed"):
			return 0
		case strings.Contains(s, "sha256"), strings.Contains(s, "kind"), strings.Contains(s, "target"):
			return 1
		}
		return 2
	}
	sort.Slice(out, func(i, j int) bool {
		if ri, rj := rank(out[i]), rank(out[j]); ri != rj {
			return ri < rj
		}
		return out[i] < out[j]
	})
	return out
}

func (s snapshot) counts() (files, dirs, links int) {
	for _, st := range s {
		switch st.Kind {
		case "file":
			files++
		case "dir":
			dirs++
		case "symlink":
			links++
		}
	}
	return
}

// changeDetail quotes what a created or changed file now holds, so that the
// record shows what the server wrote.
func (r *runner) changeDetail(d string, before, after snapshot) []string {
	for p, a := range after {
		if a.Kind != "file" || !strings.Contains(d, " "+p) {
			continue
		}
		if b, ok := before[p]; ok && b.SHA256 == a.SHA256 {
			continue
		}
		body, err := os.ReadFile(filepath.Join(r.lay.Base, filepath.FromSlash(p)))
		if err != nil {
			continue
		}
		return []string{fmt.Sprintf("%s now holds %d bytes: %q", p, len(body), truncateBytes(string(body), 200))}
	}
	return nil
}
