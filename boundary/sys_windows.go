package boundary

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openFlags opens a directory of the walk read-only.
const openFlags = os.O_RDONLY

// File attributes that syscall does not name
// (https://learn.microsoft.com/windows/win32/fileio/file-attribute-constants).
const (
	fileAttributeOffline            = 0x00001000
	fileAttributeRecallOnOpen       = 0x00040000
	fileAttributeRecallOnDataAccess = 0x00400000
	// cloudAttributes mark a file whose data is elsewhere: a OneDrive (or
	// other cloud files) placeholder, or a file moved to offline storage.
	// Reading it would fetch it, for as long as that takes.
	cloudAttributes = fileAttributeOffline | fileAttributeRecallOnOpen | fileAttributeRecallOnDataAccess
)

// CreateFile flags (the high bits of an open flag on Windows): open a
// reparse point itself rather than what it points to, and never fetch a
// cloud file's data.
const (
	fileFlagOpenReparsePoint = syscall.FILE_FLAG_OPEN_REPARSE_POINT
	fileFlagOpenNoRecall     = 0x00100000
	noteFlags                = os.O_RDONLY | fileFlagOpenReparsePoint | fileFlagOpenNoRecall
)

// Reasons only Windows gives.
var (
	errReparsePoint = errors.New("Windows reparse point: junction, mount point or other link (not followed)")
	errCloudFile    = errors.New("cloud file placeholder, such as a OneDrive file (not read: keep notes in a folder that is not synced)")
)

// linkCount is not in a Windows stat result; the walk and reads count
// links on an opened handle instead (handleInfo).
func linkCount(fs.FileInfo) uint64 { return 1 }

// isLinkErr reports an error from an open that met a reparse point on the
// way, which os.Root opens with OBJ_DONT_REPARSE.
func isLinkErr(err error) bool {
	const errorCantResolveFilename syscall.Errno = 1921
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, errorCantResolveFilename)
}

// attributes returns the Windows file attributes of a stat result.
func attributes(info fs.FileInfo) uint32 {
	if d, ok := info.Sys().(*syscall.Win32FileAttributeData); ok {
		return d.FileAttributes
	}
	return 0
}

// attributeRefusal is the reason a file with these attributes is refused,
// or nil: a cloud placeholder, or any other reparse point (junction, mount
// point, symbolic link or a kind yet to come).
func attributeRefusal(attrs uint32) error {
	switch {
	case attrs&cloudAttributes != 0:
		return errCloudFile
	case attrs&syscall.FILE_ATTRIBUTE_REPARSE_POINT != 0:
		return errReparsePoint
	}
	return nil
}

// handleInfo describes an opened file from its handle.
func handleInfo(f *os.File) (syscall.ByHandleFileInformation, uint32, error) {
	var d syscall.ByHandleFileInformation
	var kind uint32
	conn, err := f.SyscallConn()
	if err != nil {
		return d, 0, err
	}
	cerr := conn.Control(func(h uintptr) {
		if err = syscall.GetFileInformationByHandle(syscall.Handle(h), &d); err == nil {
			kind, err = syscall.GetFileType(syscall.Handle(h))
		}
	})
	return d, kind, errors.Join(cerr, err)
}

// checkHandle applies the file rules to an opened note: a regular file on
// disk, not a reparse point or placeholder, of at most MaxFileSize bytes,
// with one hard link.
func checkHandle(d *syscall.ByHandleFileInformation, kind uint32) error {
	size := int64(d.FileSizeHigh)<<32 | int64(d.FileSizeLow)
	switch {
	case attributeRefusal(d.FileAttributes) != nil:
		return attributeRefusal(d.FileAttributes)
	case kind != syscall.FILE_TYPE_DISK || d.FileAttributes&syscall.FILE_ATTRIBUTE_DIRECTORY != 0:
		return ErrNotRegular
	case size > MaxFileSize:
		return ErrTooLarge
	case d.NumberOfLinks > 1:
		return ErrHardLinks
	}
	return nil
}

// sameFile reports whether two handles are on the same file.
func sameFile(a, b *syscall.ByHandleFileInformation) bool {
	return a.VolumeSerialNumber == b.VolumeSerialNumber &&
		a.FileIndexHigh == b.FileIndexHigh && a.FileIndexLow == b.FileIndexLow
}
