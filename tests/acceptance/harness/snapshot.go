package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"practice-notes/tests/acceptance/checks"
)

// fileState is what check 7 compares for every entry under the temp dir,
// inside and outside the root.
type fileState = checks.FileState

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

// bodies reads the start of every regular file created or changed since
// before, for check 7's evidence.
func bodies(base string, before, after snapshot) map[string]string {
	out := map[string]string{}
	for _, p := range checks.ChangedFiles(before, after) {
		f, err := os.Open(filepath.Join(base, filepath.FromSlash(p)))
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(io.LimitReader(f, 4096))
		f.Close()
		out[p] = string(b)
	}
	return out
}
