package boundary

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/windows"
)

// checkRefused reads name from a fresh root on rootDir and walks it: the
// read is refused for want and returns nothing, and the walk skips
// skipped (name, or the directory on its way) for want.
func checkRefused(t *testing.T, rootDir, name, skipped string, want error) {
	t.Helper()
	r := open(t, rootDir)
	data, err := r.ReadNote(context.Background(), name)
	if !errors.Is(err, want) || data != nil {
		t.Errorf("ReadNote(%q) = %q, %v; want %v", name, data, err, want)
	}
	listing, err := r.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if contains(names(listing), name) {
		t.Errorf("Walk listed %q", name)
	}
	found := false
	for _, s := range listing.Skipped {
		found = found || s.Name == skipped && errors.Is(s.Reason, want)
	}
	if !found {
		t.Errorf("Walk skipped %v; want %q skipped for %v", listing.Skipped, skipped, want)
	}
}

// A junction inside the root to a directory outside it is neither
// entered by the walk nor followed by a read, and the walk says why. Go
// reports a junction as an irregular file, not a link, so only the
// reparse-point attribute gives it away.
func TestWindowsJunction(t *testing.T) {
	base, rootDir := fixture(t)
	link := filepath.Join(rootDir, "junction")
	if out, err := exec.Command("cmd", "/c", "mklink", "/J", link, filepath.Join(base, "outside-dir")).CombinedOutput(); err != nil {
		t.Skipf("mklink /J could not make a junction here: %v %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(link, "secret.md")); err != nil {
		t.Skipf("mklink /J reported success but the junction does not lead anywhere: %v", err)
	}
	checkRefused(t, rootDir, "junction/secret.md", "junction", errReparsePoint)
}

// A symbolic link to a directory is refused as a link, as on unix.
func TestWindowsDirectorySymlink(t *testing.T) {
	base, rootDir := fixture(t)
	link := filepath.Join(rootDir, "linkdir")
	if err := os.Symlink(filepath.Join(base, "outside-dir"), link); err != nil {
		t.Skipf("no symbolic links here (they need Developer Mode or the privilege to create them): %v", err)
	}
	if _, err := os.Stat(filepath.Join(link, "secret.md")); err != nil {
		t.Skipf("os.Symlink reported success but the link does not lead anywhere: %v", err)
	}
	checkRefused(t, rootDir, "linkdir/secret.md", "linkdir", errSymlink)
}

// A note whose data is offline, as a OneDrive placeholder's is, is refused
// with a reason that says so, and its data is not fetched. The offline
// attribute is the one of the cloud attributes a test can set.
func TestWindowsOfflineFile(t *testing.T) {
	_, rootDir := fixture(t)
	p := filepath.Join(rootDir, "cloud.md")
	write(t, p, "data held elsewhere\n")
	name, err := syscall.UTF16PtrFromString(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.SetFileAttributes(name, syscall.FILE_ATTRIBUTE_ARCHIVE|windows.FILE_ATTRIBUTE_OFFLINE); err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(p)
	if err != nil || attributes(info)&windows.FILE_ATTRIBUTE_OFFLINE == 0 {
		t.Skipf("this file system does not keep the offline attribute: %v", err)
	}
	checkRefused(t, rootDir, "cloud.md", "cloud.md", errCloudFile)
}

// A hard link inside the root to a file outside it is refused by the walk
// and by a read, which count links on the opened handle; other notes are
// read as before.
func TestWindowsHardLink(t *testing.T) {
	base, rootDir := fixture(t)
	if err := os.Link(filepath.Join(base, "outside.md"), filepath.Join(rootDir, "hard.md")); err != nil {
		t.Fatal(err)
	}
	checkRefused(t, rootDir, "hard.md", "hard.md", errHardLinks)
	r := open(t, rootDir)
	if data, err := r.ReadNote(context.Background(), "a.md"); err != nil || !strings.Contains(string(data), "alpha") {
		t.Errorf("ReadNote(a.md) = %q, %v; want the note", data, err)
	}
}

// TestWindowsHandleRules needs no files, so it runs even under Wine: the
// reason for each kind of opened file, from its handle's description.
func TestWindowsHandleRules(t *testing.T) {
	note := func(change func(*handle)) handle {
		d := handle{kind: windows.FILE_TYPE_DISK}
		d.FileAttributes = windows.FILE_ATTRIBUTE_ARCHIVE
		d.FileSizeLow = 100
		d.NumberOfLinks = 1
		change(&d)
		return d
	}
	reparse := func(tag uint32) func(*handle) {
		return func(d *handle) {
			d.FileAttributes |= windows.FILE_ATTRIBUTE_REPARSE_POINT
			d.tag = tag
		}
	}
	tests := []struct {
		name string
		d    handle
		want error
	}{
		{"note", note(func(*handle) {}), nil},
		{"two links", note(func(d *handle) { d.NumberOfLinks = 2 }), errHardLinks},
		{"too large", note(func(d *handle) { d.FileSizeLow = MaxFileSize + 1 }), errTooLarge},
		{"over 4 GiB", note(func(d *handle) { d.FileSizeHigh = 1 }), errTooLarge},
		{"directory", note(func(d *handle) { d.FileAttributes |= windows.FILE_ATTRIBUTE_DIRECTORY }), errNotRegular},
		{"character device", note(func(d *handle) { d.kind = windows.FILE_TYPE_CHAR }), errNotRegular},
		{"pipe", note(func(d *handle) { d.kind = windows.FILE_TYPE_PIPE }), errNotRegular},
		{"symbolic link", note(reparse(windows.IO_REPARSE_TAG_SYMLINK)), errReparsePoint},
		{"junction", note(reparse(windows.IO_REPARSE_TAG_MOUNT_POINT)), errReparsePoint},
		{"cloud file", note(reparse(0x9000001A)), errCloudFile},
		{"cloud file 3", note(reparse(0x9000301A)), errCloudFile},
		{"cloud file F", note(reparse(0x9000F01A)), errCloudFile},
		{"OneDrive", note(reparse(0x80000021)), errCloudFile},
		{"dedup", note(reparse(0x80000013)), errReparsePoint},
		{"offline", note(func(d *handle) { d.FileAttributes |= windows.FILE_ATTRIBUTE_OFFLINE }), errCloudFile},
		{"recall on open", note(func(d *handle) { d.FileAttributes |= windows.FILE_ATTRIBUTE_RECALL_ON_OPEN }), errCloudFile},
		{"recall on data access", note(func(d *handle) { d.FileAttributes |= windows.FILE_ATTRIBUTE_RECALL_ON_DATA_ACCESS }), errCloudFile},
	}
	for _, tt := range tests {
		if got := tt.d.check(); got != tt.want {
			t.Errorf("%s: check() = %v; want %v", tt.name, got, tt.want)
		}
	}
}
