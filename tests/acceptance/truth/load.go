package truth

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Load describes the directory dir as a [Tree]: it lists every entry with
// lstat, never following a link, reads each regular file (at most
// FileLimit+1 bytes of it, enough to tell one too large), and opens nothing
// else, so a FIFO cannot stall it. A file or directory it cannot open is
// described as unreadable, not as an error; an error is returned only when
// dir itself cannot be listed.
func Load(dir string) (Tree, error) {
	// The root itself may be reached through a link (as /tmp is on macOS);
	// nothing below it is.
	if info, err := os.Lstat(dir); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		if dir, err = filepath.EvalSymlinks(dir); err != nil {
			return nil, fmt.Errorf("describing %s: %w", dir, err)
		}
	}
	t := Tree{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if p == dir {
			return err
		}
		rel, rerr := filepath.Rel(dir, p)
		if rerr != nil {
			return rerr
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			// A directory that cannot be listed: its own entry stays,
			// nothing below it is known.
			e := t[rel]
			e.Unreadable = true
			t[rel] = e
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil // gone since the listing
		}
		switch mode := info.Mode(); {
		case mode.IsDir():
			t[rel] = Entry{Kind: Dir, Unreadable: mode.Perm()&0o444 == 0}
		case mode&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return fmt.Errorf("reading link %s: %w", p, err)
			}
			t[rel] = Entry{Kind: Symlink, Target: target}
		case mode&fs.ModeNamedPipe != 0:
			t[rel] = Entry{Kind: FIFO}
		case mode.IsRegular():
			e := Entry{Kind: Regular, Links: hardLinks(info), Unreadable: mode.Perm()&0o444 == 0}
			e.Data, err = readHead(p)
			if err != nil {
				e.Unreadable, e.Data = true, nil
			}
			t[rel] = e
		default:
			t[rel] = Entry{Kind: Other}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("describing %s: %w", dir, err)
	}
	return t, nil
}

// readHead reads at most FileLimit+1 bytes of the regular file at p.
func readHead(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, FileLimit+1))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if b == nil {
		b = []byte{}
	}
	return b, nil
}
