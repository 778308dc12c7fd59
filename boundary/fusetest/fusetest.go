//go:build linux

package fusetest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// namespaceEnv marks the copy of a test binary run by InPrivateMountNamespace.
const namespaceEnv = "PRACTICE_NOTES_PRIVATE_MOUNT_NAMESPACE"

// InPrivateMountNamespace runs the calling test again, alone, in a copy of
// the test binary in a new mount namespace whose mounts are all private,
// and reports whether the caller is that copy. In the original it returns
// false once the copy has passed, fails the test if the copy failed, and
// skips it, saying why, where the machine cannot make a mount namespace.
func InPrivateMountNamespace(t *testing.T) (inside bool) {
	t.Helper()
	if os.Getenv(namespaceEnv) == t.Name() {
		return true
	}
	if os.Geteuid() != 0 {
		t.Skip("skipped: mounting needs root (CAP_SYS_ADMIN) in a private mount namespace")
	}
	run := "^" + strings.ReplaceAll(t.Name(), "/", "$/^") + "$"
	args := []string{"-test.run=" + run, "-test.v", "-test.count=1"}
	if d, ok := t.Deadline(); ok {
		args = append(args, "-test.timeout="+time.Until(d).Truncate(time.Second).String())
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), namespaceEnv+"="+t.Name())
	// Unshareflags CLONE_NEWNS also makes every mount private in the copy.
	// The copy dies with the test that started it, so a test killed for
	// its timeout leaves nothing behind.
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS, Pdeathsig: syscall.SIGKILL}
	out, err := cmd.CombinedOutput()
	if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) {
		t.Skipf("skipped: no private mount namespace here: %v", err)
	}
	if err == nil && bytes.Contains(out, []byte("--- SKIP: "+t.Name())) {
		t.Skipf("skipped in a private mount namespace:\n%s", out)
	}
	if err != nil || !bytes.Contains(out, []byte("--- PASS: "+t.Name())) {
		t.Fatalf("in a private mount namespace: %v\n%s", err, out)
	}
	t.Logf("passed in a private mount namespace:\n%s", out)
	return false
}

// FS is a mounted test file system.
type FS struct {
	Dir string // where it is mounted

	dev    int               // /dev/fuse, blocking
	files  map[string]string // slash-separated name -> contents
	nodes  []string          // node ID - 1 -> name ("" is the root)
	ids    map[string]uint64
	block  func(name string) bool
	mu     sync.Mutex
	held   []heldRead // blocked reads, answered by Release or Answer
	closed bool
	done   chan struct{}
}

// Mount serves files (slash-separated names, directories implied) on a new
// FUSE mount in a temporary directory. A READ of a file for which block
// returns true is never answered until Release. Mount skips the test, with
// the reason, when /dev/fuse cannot be opened or mounted.
func Mount(t testing.TB, files map[string]string, block func(name string) bool) *FS {
	t.Helper()
	// Opened without os.File, whose poller would make the descriptor
	// non-blocking: serve reads it in a plain blocking loop.
	dev, err := syscall.Open("/dev/fuse", syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("skipped: cannot open /dev/fuse: %v", err)
	}
	fs := &FS{Dir: t.TempDir(), dev: dev, files: files, ids: map[string]uint64{}, block: block, done: make(chan struct{})}
	fs.node("")
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for d := filepath.Dir(name); d != "."; d = filepath.Dir(d) {
			fs.node(filepath.ToSlash(d))
		}
		fs.node(name)
	}
	opts := fmt.Sprintf("fd=%d,rootmode=40755,user_id=0,group_id=0,allow_other", dev)
	if err := syscall.Mount("fusetest", fs.Dir, "fuse.fusetest", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_RDONLY, opts); err != nil {
		syscall.Close(dev)
		t.Skipf("skipped: cannot mount a FUSE file system: %v", err)
	}
	go fs.serve()
	// A read stuck in the kernel on this mount cannot be killed, and the
	// process cannot exit until it is answered. So the blocked reads are
	// answered before the test's deadline, whatever the code under test
	// does; a test that then finds its read took that long fails.
	if dt, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if d, ok := dt.Deadline(); ok {
			stop := time.AfterFunc(time.Until(d)-5*time.Second, fs.Release)
			t.Cleanup(func() { stop.Stop() })
		}
	}
	t.Cleanup(func() {
		fs.Release()
		syscall.Unmount(fs.Dir, syscall.MNT_DETACH)
		fs.mu.Lock()
		fs.closed = true
		fs.mu.Unlock()
		syscall.Close(dev)
	})
	return fs
}

// A heldRead is a READ not answered while its file was blocked.
type heldRead struct {
	h         inHeader
	name      string
	off, size int
}

// Release answers every blocked read with EIO (the kernel may then read
// again, and get the contents) and stops blocking.
func (fs *FS) Release() { fs.unblock(false) }

// Answer answers every blocked read with the file's contents, as a slow
// file system finally would, and stops blocking.
func (fs *FS) Answer() { fs.unblock(true) }

func (fs *FS) unblock(answer bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.block = func(string) bool { return false }
	for _, r := range fs.held {
		msg := fs.encode(r.h, -int32(syscall.EIO), nil)
		if answer {
			data := fs.files[r.name]
			off := min(r.off, len(data))
			msg = fs.frame(r.h, 0, []byte(data[off:min(off+r.size, len(data))]))
		}
		if !fs.closed {
			syscall.Write(fs.dev, msg)
		}
	}
	fs.held = nil
}

func (fs *FS) node(name string) uint64 {
	if id, ok := fs.ids[name]; ok {
		return id
	}
	fs.nodes = append(fs.nodes, name)
	fs.ids[name] = uint64(len(fs.nodes))
	return uint64(len(fs.nodes))
}

func (fs *FS) isDir(name string) bool {
	_, file := fs.files[name]
	return !file
}

// Opcodes and sizes of the FUSE protocol (include/uapi/linux/fuse.h).
const (
	opLookup      = 1
	opForget      = 2
	opGetattr     = 3
	opOpen        = 14
	opRead        = 15
	opStatfs      = 17
	opRelease     = 18
	opFlush       = 25
	opInit        = 26
	opOpendir     = 27
	opReaddir     = 28
	opReleasedir  = 29
	opInterrupt   = 36
	opDestroy     = 38
	opBatchForget = 42

	inHeaderSize = 40
)

type inHeader struct {
	Len, Opcode uint32
	Unique      uint64
	NodeID      uint64
	UID, GID    uint32
	PID         uint32
	ExtLen, Pad uint16
}

type outHeader struct {
	Len    uint32
	Error  int32
	Unique uint64
}

type attr struct {
	Ino, Size, Blocks, Atime, Mtime, Ctime uint64
	Atimensec, Mtimensec, Ctimensec        uint32
	Mode, Nlink, UID, GID, Rdev, Blksize   uint32
	Flags                                  uint32
}

type entryOut struct {
	NodeID, Generation, EntryValid, AttrValid uint64
	EntryValidNsec, AttrValidNsec             uint32
	Attr                                      attr
}

type attrOut struct {
	AttrValid     uint64
	AttrValidNsec uint32
	Dummy         uint32
	Attr          attr
}

type initOut struct {
	Major, Minor, MaxReadahead, Flags  uint32
	MaxBackground, CongestionThreshold uint16
	MaxWrite, TimeGran                 uint32
	MaxPages, MapAlignment             uint16
	Flags2, MaxStackDepth              uint32
	Unused                             [6]uint32
}

type openOut struct {
	Fh        uint64
	OpenFlags uint32
	BackingID int32
}

type readIn struct {
	Fh          uint64
	Offset      uint64
	Size        uint32
	ReadFlags   uint32
	LockOwner   uint64
	Flags, Pad2 uint32
}

type statfsOut struct {
	Blocks, Bfree, Bavail, Files, Ffree uint64
	Bsize, Namelen, Frsize, Padding     uint32
	Spare                               [6]uint32
}

func (fs *FS) serve() {
	buf := make([]byte, 1<<20+4096)
	for {
		n, err := syscall.Read(fs.dev, buf)
		if err != nil {
			if errors.Is(err, syscall.EINTR) || errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.ENOENT) {
				continue // ENOENT: a request was interrupted before it was read
			}
			return // ENODEV after unmount, or the device was closed
		}
		if n < inHeaderSize {
			continue
		}
		var h inHeader
		binary.Read(bytes.NewReader(buf[:inHeaderSize]), binary.LittleEndian, &h)
		fs.handle(h, buf[inHeaderSize:n])
	}
}

func (fs *FS) handle(h inHeader, body []byte) {
	switch h.Opcode {
	case opForget, opBatchForget, opInterrupt:
		return // no reply
	case opInit:
		fs.reply(h, 0, &initOut{Major: 7, Minor: 31, MaxReadahead: 1 << 16, MaxBackground: 16, CongestionThreshold: 12, MaxWrite: 1 << 16, TimeGran: 1})
	case opDestroy:
		fs.reply(h, 0, nil)
	case opLookup:
		name := string(bytes.TrimRight(body, "\x00"))
		parent := fs.name(h.NodeID)
		full := name
		if parent != "" {
			full = parent + "/" + name
		}
		id, ok := fs.ids[full]
		if !ok {
			fs.reply(h, -int32(syscall.ENOENT), nil)
			return
		}
		fs.reply(h, 0, &entryOut{NodeID: id, Attr: fs.attr(id)})
	case opGetattr:
		if int(h.NodeID) > len(fs.nodes) || h.NodeID == 0 {
			fs.reply(h, -int32(syscall.ENOENT), nil)
			return
		}
		fs.reply(h, 0, &attrOut{Attr: fs.attr(h.NodeID)})
	case opOpen, opOpendir:
		fs.reply(h, 0, &openOut{Fh: h.NodeID})
	case opRelease, opReleasedir, opFlush:
		fs.reply(h, 0, nil)
	case opStatfs:
		fs.reply(h, 0, &statfsOut{Bsize: 4096, Namelen: 255, Frsize: 4096})
	case opRead:
		var in readIn
		binary.Read(bytes.NewReader(body), binary.LittleEndian, &in)
		name := fs.name(h.NodeID)
		fs.mu.Lock()
		if fs.block(name) {
			// Never answered until Release (EIO) or Answer.
			fs.held = append(fs.held, heldRead{h, name, int(in.Offset), int(in.Size)})
			fs.mu.Unlock()
			return
		}
		fs.mu.Unlock()
		data := fs.files[name]
		off := min(int(in.Offset), len(data))
		end := min(off+int(in.Size), len(data))
		fs.replyBytes(h, []byte(data[off:end]))
	case opReaddir:
		var in readIn
		binary.Read(bytes.NewReader(body), binary.LittleEndian, &in)
		fs.replyBytes(h, fs.dirents(fs.name(h.NodeID), int(in.Offset), int(in.Size)))
	default:
		fs.reply(h, -int32(syscall.ENOSYS), nil)
	}
}

func (fs *FS) name(id uint64) string {
	if id == 0 || int(id) > len(fs.nodes) {
		return ""
	}
	return fs.nodes[id-1]
}

func (fs *FS) attr(id uint64) attr {
	name := fs.name(id)
	a := attr{Ino: id, Nlink: 1, Blksize: 4096}
	if fs.isDir(name) {
		a.Mode = syscall.S_IFDIR | 0o755
		a.Nlink = 2
	} else {
		a.Mode = syscall.S_IFREG | 0o644
		a.Size = uint64(len(fs.files[name]))
		a.Blocks = (a.Size + 511) / 512
	}
	return a
}

// dirents lists dir's children from entry number off, as fuse_dirent
// records that fit in size bytes.
func (fs *FS) dirents(dir string, off, size int) []byte {
	var kids []string
	for _, n := range fs.nodes {
		if n != "" && filepath.ToSlash(filepath.Dir(n)) == dir || (dir == "" && n != "" && !strings.Contains(n, "/")) {
			kids = append(kids, n)
		}
	}
	var out bytes.Buffer
	for i := off; i < len(kids); i++ {
		base := kids[i][strings.LastIndex(kids[i], "/")+1:]
		typ := uint32(syscall.DT_REG)
		if fs.isDir(kids[i]) {
			typ = syscall.DT_DIR
		}
		rec := 24 + len(base)
		padded := (rec + 7) &^ 7
		if out.Len()+padded > size {
			break
		}
		binary.Write(&out, binary.LittleEndian, struct {
			Ino, Off      uint64
			Namelen, Type uint32
		}{fs.ids[kids[i]], uint64(i + 1), uint32(len(base)), typ})
		out.WriteString(base)
		out.Write(make([]byte, padded-rec))
	}
	return out.Bytes()
}

func (fs *FS) encode(h inHeader, errno int32, body any) []byte {
	var b bytes.Buffer
	if body != nil {
		binary.Write(&b, binary.LittleEndian, body)
	}
	return fs.frame(h, errno, b.Bytes())
}

func (fs *FS) frame(h inHeader, errno int32, body []byte) []byte {
	out := make([]byte, int(unsafe.Sizeof(outHeader{}))+len(body))
	binary.LittleEndian.PutUint32(out[0:], uint32(len(out)))
	binary.LittleEndian.PutUint32(out[4:], uint32(errno))
	binary.LittleEndian.PutUint64(out[8:], h.Unique)
	copy(out[16:], body)
	return out
}

func (fs *FS) reply(h inHeader, errno int32, body any) {
	if errno != 0 {
		body = nil
	}
	fs.write(fs.encode(h, errno, body))
}

func (fs *FS) replyBytes(h inHeader, data []byte) { fs.write(fs.frame(h, 0, data)) }

func (fs *FS) write(msg []byte) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if !fs.closed {
		syscall.Write(fs.dev, msg)
	}
}
