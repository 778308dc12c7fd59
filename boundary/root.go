package boundary

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"practice-notes/internal/seam"
)

// Root is an open notes directory. Its methods are safe for concurrent use.
type Root struct {
	dir  string
	root *os.Root
	// dot is the root directory opened through root, kept open so that
	// notes can be opened relative to it (see openNote); dotConn reaches
	// its descriptor without switching it to blocking mode.
	dot     *os.File
	dotConn syscall.RawConn
	faults  seam.Hook // nil outside tests
	mount   rootMount
	// settle is how old a note's times must be before it is given a
	// Stamp; zero gives none (see Stamp).
	settle time.Duration
	// abandoned counts operations still running whose caller gave up at
	// its deadline (see await).
	abandoned atomic.Int64
}

// Open opens dir, made absolute once here, as a notes root. It fails when dir
// is missing, is not a directory or cannot be read. Only this module's
// tests can make test options (see package seam), and the last given
// applies; the program never passes any.
func Open(dir string, test ...seam.Options) (*Root, error) {
	var opts seam.Options
	if len(test) > 0 {
		opts = test[len(test)-1]
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	info, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s does not exist", abs)
	}
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read: %w", abs, bare(err))
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", abs)
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be opened: %w", abs, bare(err))
	}
	// Listing the root proves it is readable now, not at the first call.
	dot, err := r.OpenFile(".", openFlags, 0)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("%s cannot be read: %w", abs, bare(err))
	}
	if _, err = dot.ReadDir(1); err != nil && !errors.Is(err, io.EOF) {
		dot.Close()
		r.Close()
		return nil, fmt.Errorf("%s cannot be read: %w", abs, bare(err))
	}
	conn, err := dot.SyscallConn()
	if err != nil {
		dot.Close()
		r.Close()
		return nil, fmt.Errorf("%s cannot be opened: %w", abs, bare(err))
	}
	root := &Root{dir: abs, root: r, dot: dot, dotConn: conn, faults: opts.Faults}
	if err := root.initMount(); err != nil {
		root.Close()
		return nil, fmt.Errorf("%s cannot be read: %w", abs, bare(err))
	}
	if opts.Settle > 0 {
		root.settle = opts.Settle
	}
	return root, nil
}

// bare strips the path from a *fs.PathError, which the caller already names.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Dir returns the absolute path of the root. It is for the operator's own
// messages; nothing sent to a client should contain it.
func (r *Root) Dir() string { return r.dir }

// Close releases the root's directory handles. No read may be in progress.
func (r *Root) Close() error {
	return errors.Join(r.closeMount(), r.dot.Close(), r.root.Close())
}
