package boundary

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// rootMount is what keeps walks and reads on the root's own file system.
type rootMount struct {
	dev  uint64 // device of the root directory, recorded at Open
	real string // the root's path with links resolved, as mountinfo shows it
	// xdev is set when openat2 with RESOLVE_NO_XDEV works (Linux 5.6 and
	// later): every element of a note's name is then opened so, and the
	// kernel refuses to cross any mount, bind mounts of one file system
	// onto itself included. Without it only a change of device is seen.
	xdev bool
	// openings holds *opening, the scratch of a note's openat2.
	openings sync.Pool
	// stamps is set when the root's file system is one whose Stamps are
	// given (see stampedFS); mount points are never crossed, so every
	// note is on it.
	stamps bool
	table  mountTable // mount points below the root, for walks
	// Without openat2, each element a read opens must be on the root's
	// own mount: id is the root's mount ID, and ids how the mount ID of
	// an open file is learnt (statx, then /proc/self/fdinfo). Where
	// neither tells it, the mount table is asked instead (see
	// checkMountFallback).
	id  uint64
	ids mountIDSource
}

// A mountIDSource is how the mount ID of an open file is learnt.
type mountIDSource int

const (
	noMountIDs     mountIDSource = iota
	statxMountIDs                // statx with STATX_MNT_ID: Linux 5.8 and later
	fdinfoMountIDs               // "mnt_id:" in /proc/self/fdinfo: Linux 3.15 and later
)

// initMount records the root's device from the opened root directory.
func (r *Root) initMount() error {
	info, err := r.dot.Stat()
	if err != nil {
		return err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	r.mount.dev = uint64(st.Dev)
	r.settle = writebackSettle()
	if real, err := filepath.EvalSymlinks(r.dir); err == nil {
		r.mount.real = real
	}
	var probe int
	var perr error
	if err := r.dotConn.Control(func(dot uintptr) { probe, perr = openat2(int(dot), ".", noteFlags|syscall.O_DIRECTORY) }); err == nil && perr == nil {
		syscall.Close(probe)
		r.mount.xdev = true
	}
	r.dotConn.Control(func(dot uintptr) {
		r.mount.stamps = stampedFS(int(dot))
		// Learnt even where openat2 works: one call at Open, and the
		// fallback path is then tested the way it runs without openat2.
		for _, src := range []mountIDSource{statxMountIDs, fdinfoMountIDs} {
			if id, err := mountID(int(dot), src); err == nil {
				r.mount.id, r.mount.ids = id, src
				break
			}
		}
	})
	return nil
}

// mountID returns the ID of the mount the open file fd is on, learnt from
// src. A bind mount of the root's own file system keeps the device number
// but is a mount of its own, with an ID of its own.
func mountID(fd int, src mountIDSource) (uint64, error) {
	switch src {
	case statxMountIDs:
		var stx unix.Statx_t
		err := ignoringEINTR(func() error {
			return unix.Statx(fd, "", unix.AT_EMPTY_PATH|unix.AT_SYMLINK_NOFOLLOW, unix.STATX_MNT_ID, &stx)
		})
		if err != nil {
			return 0, fmt.Errorf("statx: %w", err)
		}
		if stx.Mask&unix.STATX_MNT_ID == 0 {
			return 0, errors.New("statx gives no mount ID before Linux 5.8")
		}
		return stx.Mnt_id, nil
	case fdinfoMountIDs:
		data, err := os.ReadFile("/proc/self/fdinfo/" + strconv.Itoa(fd))
		if err != nil {
			return 0, fmt.Errorf("fdinfo: %w", err)
		}
		for line := range strings.Lines(string(data)) {
			if v, ok := strings.CutPrefix(line, "mnt_id:"); ok {
				return strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			}
		}
		return 0, errors.New("fdinfo holds no mnt_id")
	}
	return 0, errors.New("no way to learn mount IDs")
}

// onRootMount reports, for the fallback open path, whether fd, one element
// of a note's name just opened, is on the root's own mount: a mount point
// is where the file opened is on another mount, even of the same file
// system (a bind mount of a directory, or of one file). It answers true
// where mount IDs are not known; checkMountFallback covers that case.
func (r *Root) onRootMount(fd int) (bool, error) {
	if r.mount.ids == noMountIDs {
		return true, nil
	}
	id, err := mountID(fd, r.mount.ids)
	if err != nil {
		return false, err
	}
	return id == r.mount.id, nil
}

// checkMountFallback is the fallback open path's check of name, opened,
// where mount IDs are not known: no element of name may be a mount point
// in the mount table, read again when it changed. A mount made and undone
// between the open and this check is not seen; without the table, nothing
// is (a change of device is still caught, see readNote).
func (r *Root) checkMountFallback(name string) error {
	if r.mount.ids != noMountIDs {
		return nil
	}
	mounts := r.mountPoints()
	for i := range len(name) + 1 {
		if (i == len(name) || name[i] == '/') && mounts[name[:i]] {
			return syscall.EXDEV
		}
	}
	return nil
}

// onRootDevice reports whether info, from an lstat, is on the root's device.
func (r *Root) onRootDevice(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return !ok || uint64(st.Dev) == r.mount.dev
}

// mountPoints returns the slash-separated names, relative to the root, of
// every mount point below it, from /proc/self/mountinfo, so that a walk
// can skip even a bind mount of the root's own file system (same device).
// Without mountinfo it returns nil; reads still refuse to cross a mount.
//
// The table is read again only when it may have changed: mountinfo is kept
// open, and the kernel flags an open mountinfo with POLLPRI and POLLERR
// after any mount or unmount in its mount namespace (proc(5)), so an
// unchanged table costs a walk one ppoll that does not wait, where reading
// and parsing it cost more than the rest of a walk of a small folder. The
// returned map is shared by walks and never changed.
func (r *Root) mountPoints() map[string]bool {
	if r.mount.real == "" {
		return nil
	}
	t := &r.mount.table
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.info != nil && !mountsChanged(t.info) {
		return t.points
	}
	if t.info != nil {
		t.info.Close()
		t.info, t.points = nil, nil
	}
	// Opened before it is read, so that a change made after the open,
	// even one the read below already shows, is flagged on the new file.
	fd, err := syscall.Open("/proc/self/mountinfo", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	// Closed by Root.Close.
	f := os.NewFile(uintptr(fd), "/proc/self/mountinfo")
	points, err := readMountPoints(f, strings.TrimSuffix(r.mount.real, "/")+"/")
	if err != nil {
		f.Close() // read again by the next walk
		return points
	}
	t.info, t.points = f, points
	return points
}

// closeMount closes the mountinfo kept open for walks.
func (r *Root) closeMount() error {
	t := &r.mount.table
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.info == nil {
		return nil
	}
	err := t.info.Close()
	t.info, t.points = nil, nil
	return err
}

// mountTable holds what the last read of mountinfo found (see mountPoints).
type mountTable struct {
	mu     sync.Mutex
	info   *os.File        // mountinfo, open since before points was read; nil before the first read
	points map[string]bool // mount points below the root, shared by walks
}

// readMountPoints returns the mount points of mountinfo f that lie below
// prefix, a directory path ending in "/", relative to it.
func readMountPoints(f *os.File, prefix string) (map[string]bool, error) {
	var points map[string]bool
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		// ID parent major:minor root mount-point options ...
		fields := bytes.Fields(sc.Bytes())
		if len(fields) < 5 {
			continue
		}
		point := unescapeMountinfo(string(fields[4]))
		if rel, ok := strings.CutPrefix(point, prefix); ok && rel != "" {
			if points == nil {
				points = map[string]bool{}
			}
			points[rel] = true
		}
	}
	return points, sc.Err()
}

// pollFd is the kernel's struct pollfd.
type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

const (
	pollPri = 0x2
	pollErr = 0x8
)

// mountsChanged reports whether the mount table may have changed since f,
// an open mountinfo, was opened or last asked. It does not wait; when it
// cannot tell, it says the table changed.
func mountsChanged(f *os.File) bool {
	fds := [1]pollFd{{fd: int32(f.Fd()), events: pollPri}}
	var now syscall.Timespec // a zero timeout: report, do not wait
	n, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), 1,
		uintptr(unsafe.Pointer(&now)), 0, 0, 0)
	return errno != 0 || n != 0
}

// unescapeMountinfo undoes mountinfo's octal escapes (\040 for a space).
func unescapeMountinfo(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// openHow is the kernel's struct open_how.
type openHow struct {
	flags, mode, resolve uint64
}

const (
	sysOpenat2     = 437 // the same number on every Linux architecture
	resolveNoXdev  = 0x01
	resolveNoLinks = 0x04
	resolveBeneath = 0x08
)

// openat2 opens name, one element or a relative path, relative to dir
// without leaving the tree below dir (RESOLVE_BENEATH), crossing a mount
// point (EXDEV) or following a link (ELOOP), whichever element it is on.
func openat2(dir int, name string, flags int) (int, error) {
	p, err := syscall.BytePtrFromString(name)
	if err != nil {
		return -1, err
	}
	return openat2Ptr(dir, p, flags)
}

// openat2Ptr is openat2 of the NUL-terminated name at p.
func openat2Ptr(dir int, p *byte, flags int) (int, error) {
	how := openHow{flags: uint64(flags), resolve: resolveNoXdev | resolveNoLinks | resolveBeneath}
	for tries := 0; ; tries++ {
		fd, _, errno := syscall.Syscall6(sysOpenat2, uintptr(dir), uintptr(unsafe.Pointer(p)),
			uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
		switch {
		case errno == 0:
			return int(fd), nil
		case errno == syscall.EINTR,
			errno == syscall.EAGAIN && tries < 8: // a rename raced the resolution
			continue
		}
		return -1, errno
	}
}
