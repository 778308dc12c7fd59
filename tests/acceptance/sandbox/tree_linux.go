//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/sys/unix"
)

// buildTree makes the server's file system (see visible_linux.go): a
// fresh root holding only the folders cfg names, each at its own path,
// every mount read-only but the run's folders, the Go build cache
// overlaid, and a /proc of the new PID namespace; then it makes that the
// root and enters cfg.Dir.
func buildTree(cfg stageConfig) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making the mounts private: %w", err)
	}
	points, err := mountPoints()
	if err != nil {
		return err
	}
	for _, mp := range points {
		if mp == "/proc" || strings.HasPrefix(mp, "/proc/") {
			continue // a fresh one below
		}
		// Read-only first, so that every mount bound into the new root
		// with its submounts is read-only too. Some cannot be reached or
		// changed (covered by a later mount, or not ours to change); the
		// probe checks what held.
		_ = remountBind(mp, true)
	}
	o := cfg.Overlay
	if o != nil && len(o.Lower) > 0 {
		// Here, where the grader's cache (a lower layer) is still seen.
		if err := mountOverlay(o); err != nil {
			return err
		}
	}
	root := cfg.Root
	if err := unix.Mount("root", root, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=1m,mode=0755"); err != nil {
		return fmt.Errorf("mounting the server's root: %w", err)
	}
	binds, err := planBinds(root, cfg.Visible, cfg.Writable)
	if err != nil {
		return err
	}
	if o != nil && len(o.Lower) > 0 {
		binds = append(binds, bind{o.Scratch, false, false}, bind{o.Merged, false, false})
	}
	for _, f := range cfg.Locked {
		if st, err := os.Lstat(f); err == nil && st.Mode().IsRegular() { // made only while check 22 runs
			binds = append(binds, bind{f, true, false})
		}
	}
	binds = append(binds, bind{"/dev", true, true}, bind{"/sys", true, true})
	for _, b := range binds {
		if err := b.mount(root); err != nil {
			return err
		}
	}
	for _, d := range []string{"proc", "tmp"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("making /%s: %w", d, err)
		}
	}
	if err := unix.Mount("proc", filepath.Join(root, "proc"), "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mounting /proc: %w", err)
	}
	return enterRoot(root, cfg.Dir)
}

// enterRoot makes root the root, detaches the old one and enters dir.
func enterRoot(root, dir string) error {
	if err := unix.Chdir(root); err != nil {
		return fmt.Errorf("entering the server's root: %w", err)
	}
	// pivot_root(".", "."): the old root ends up on top of the new one,
	// where it is detached.
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detaching the grader's root: %w", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		return fmt.Errorf("making the server's root read-only: %w", err)
	}
	if dir == "" || unix.Chdir(dir) != nil {
		return unix.Chdir("/")
	}
	return nil
}

// bind is one folder (or file) of the grader's bound into the new root.
type bind struct {
	path     string // resolved: no symbolic link on the way
	readOnly bool
	rec      bool // with the mounts below it
}

// planBinds resolves the visible (read-only, with their submounts) and
// writable folders, recreating in root the symbolic links on their way
// (/bin -> usr/bin, say), and orders them parents first, dropping a
// read-only folder inside another one.
func planBinds(root string, visible, writable []string) ([]bind, error) {
	var binds []bind
	for i, p := range append(append([]string(nil), visible...), writable...) {
		real, err := mirrorPath(root, p, 0)
		if errors.Is(err, fs.ErrNotExist) {
			continue // a toolchain folder gone since: nothing to see
		}
		if err != nil {
			return nil, err
		}
		if real == "" {
			continue // a link, recreated
		}
		ro := i < len(visible)
		binds = append(binds, bind{real, ro, ro})
	}
	sort.SliceStable(binds, func(i, j int) bool { return binds[i].path < binds[j].path })
	var out []bind
	for _, b := range binds {
		covered := false
		for _, o := range out {
			covered = covered || (b.readOnly && within(b.path, o.path))
		}
		if !covered {
			out = append(out, b)
		}
	}
	return out, nil
}

// mirrorPath returns p with its symbolic links resolved, and makes each
// link on its way in root as it is, so that the path p works there too.
// A path that is itself a link gets the link only: "" is returned when
// its target is not to be bound (the target is bound in its own right
// when it is listed, as /usr is for /bin).
func mirrorPath(root, p string, depth int) (string, error) {
	if depth > 16 {
		return "", fmt.Errorf("%s: too many symbolic links", p)
	}
	cur := "/"
	parts := strings.Split(strings.Trim(filepath.Clean(p), "/"), "/")
	for i, c := range parts {
		if c == "" {
			continue
		}
		next := filepath.Join(cur, c)
		st, err := os.Lstat(next)
		if err != nil {
			return "", err
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if err := mkdirIn(root, cur); err != nil {
			return "", err
		}
		if err := os.Symlink(target, filepath.Join(root, next)); err != nil && !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("recreating the link %s: %w", next, err)
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(cur, target)
		}
		if i == len(parts)-1 && isSystemDir(p) {
			return "", nil
		}
		resolved, err := mirrorPath(root, filepath.Join(append([]string{target}, parts[i+1:]...)...), depth+1)
		return resolved, err
	}
	return cur, nil
}

func isSystemDir(p string) bool {
	for _, d := range systemDirs {
		if p == d {
			return true
		}
	}
	return false
}

// mkdirIn makes the folder p inside root, component by component, never
// through a symbolic link (which would lead out of root).
func mkdirIn(root, p string) error {
	cur := root
	for _, c := range strings.Split(strings.Trim(p, "/"), "/") {
		if c == "" {
			continue
		}
		cur = filepath.Join(cur, c)
		st, err := os.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.Mkdir(cur, 0o755); err != nil {
				return fmt.Errorf("making %s in the server's root: %w", p, err)
			}
		case err != nil:
			return err
		case !st.IsDir():
			return fmt.Errorf("making %s in the server's root: %s is not a folder", p, strings.TrimPrefix(cur, root))
		}
	}
	return nil
}

// mount binds b at its own path inside root.
func (b bind) mount(root string) error {
	at := filepath.Join(root, b.path)
	st, err := os.Stat(b.path)
	if err != nil {
		return err
	}
	if st.IsDir() {
		err = mkdirIn(root, b.path)
	} else if err = mkdirIn(root, filepath.Dir(b.path)); err == nil {
		var f *os.File
		if f, err = os.OpenFile(at, os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			err = f.Close()
		} else if errors.Is(err, fs.ErrExist) || errors.Is(err, unix.EROFS) {
			err = nil // inside a folder bound already
		}
	}
	if err != nil && !errors.Is(err, unix.EROFS) {
		return err
	}
	flags := uintptr(unix.MS_BIND)
	if b.rec {
		flags |= unix.MS_REC
	}
	if err := unix.Mount(b.path, at, "", flags, ""); err != nil {
		return fmt.Errorf("binding %s: %w", b.path, err)
	}
	if err := remountBind(at, b.readOnly); err != nil {
		return fmt.Errorf("making %s %s: %w", b.path, map[bool]string{true: "read-only", false: "writable"}[b.readOnly], err)
	}
	return nil
}
