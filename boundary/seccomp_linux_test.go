package boundary

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"practice-notes/boundary/fusetest"
)

// denyOpenat2 installs, on every thread of this process, a seccomp filter
// under which openat2 answers ENOSYS, as on a kernel before 5.6 or under a
// container profile that forbids it. It skips the test, with the reason,
// where the kernel refuses the filter. The filter cannot be taken off: it
// is for a copy of the test binary that runs one test (see
// fusetest.InPrivateMountNamespace).
func denyOpenat2(t *testing.T) {
	t.Helper()
	arch := map[string]uint32{"amd64": unix.AUDIT_ARCH_X86_64, "arm64": unix.AUDIT_ARCH_AARCH64}[runtime.GOARCH]
	if arch == 0 {
		t.Skipf("SKIP: no seccomp filter is written here for %s", runtime.GOARCH)
	}
	const (
		load = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		ret  = unix.BPF_RET | unix.BPF_K
	)
	prog := []unix.SockFilter{
		{Code: load, K: 4}, // seccomp_data.arch
		{Code: jeq, K: arch, Jf: 3},
		{Code: load, K: 0}, // seccomp_data.nr
		{Code: jeq, K: sysOpenat2, Jf: 1},
		{Code: ret, K: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)},
		{Code: ret, K: unix.SECCOMP_RET_ALLOW},
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		t.Skipf("SKIP: the kernel refuses PR_SET_NO_NEW_PRIVS, needed for a seccomp filter: %v", err)
	}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC,
		uintptr(unsafe.Pointer(&fprog))); errno != 0 {
		t.Skipf("SKIP: the kernel refuses a seccomp filter: %v", errno)
	}
	runtime.KeepAlive(prog)
	if fd, err := openat2(unix.AT_FDCWD, ".", syscall.O_RDONLY|syscall.O_DIRECTORY); !errors.Is(err, syscall.ENOSYS) {
		syscall.Close(fd)
		t.Fatalf("openat2 under the filter: %v; want ENOSYS", err)
	}
}

// Under a real seccomp filter that makes openat2 answer ENOSYS, a root
// opened afterwards takes the fallback path, and a read still refuses a
// directory and a single file bind-mounted into the folder from the same
// file system, as the walk skips them; the notes beside them are read.
func TestFallbackRefusesBindMountsUnderSeccomp(t *testing.T) {
	if !fusetest.InPrivateMountNamespace(t) {
		return
	}
	base := t.TempDir()
	rootDir := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	write(t, filepath.Join(outside, "secret.md"), outsideMarker+"\n")
	write(t, filepath.Join(outside, "sub", "deep.md"), outsideMarker+" deep\n")
	write(t, filepath.Join(rootDir, "a.md"), "inside\n")
	write(t, filepath.Join(rootDir, "sub", "b.md"), "inside too\n")
	write(t, filepath.Join(rootDir, "file.md"), "covered by a bind mount\n")
	write(t, filepath.Join(rootDir, "mnt", "covered.md"), "covered\n")
	for _, m := range [][2]string{{outside, "mnt"}, {filepath.Join(outside, "secret.md"), "file.md"}} {
		if err := syscall.Mount(m[0], filepath.Join(rootDir, m[1]), "", syscall.MS_BIND, ""); err != nil {
			t.Skipf("SKIP: the kernel refuses a bind mount on %s: %v", m[1], err)
		}
		defer syscall.Unmount(filepath.Join(rootDir, m[1]), syscall.MNT_DETACH)
	}
	denyOpenat2(t)

	r := open(t, rootDir)
	if r.mount.xdev {
		t.Fatal("the root uses openat2 under a filter that refuses it")
	}
	ctx := context.Background()
	listing, err := r.Walk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(listing); len(got) != 2 || got[0] != "a.md" || got[1] != "sub/b.md" {
		t.Errorf("Walk lists %q; want a.md and sub/b.md", got)
	}
	for _, name := range []string{"file.md", "mnt/secret.md", "mnt/sub/deep.md"} {
		data, err := r.ReadNote(ctx, name)
		if !errors.Is(err, errMountPoint) || data != nil {
			t.Errorf("ReadNote(%q) = %q, %v; want %v", name, data, err, errMountPoint)
		}
	}
	for name, want := range map[string]string{"a.md": "inside\n", "sub/b.md": "inside too\n"} {
		if data, err := r.ReadNote(ctx, name); err != nil || string(data) != want {
			t.Errorf("ReadNote(%q) = %q, %v; want %q", name, data, err, want)
		}
	}
}
