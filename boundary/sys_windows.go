package boundary

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// openFlags opens a directory of the walk read-only.
const openFlags = os.O_RDONLY

// cloudAttributes mark a file whose data is elsewhere: a OneDrive (or other
// cloud files) placeholder, or a file moved to offline storage. Reading it
// would fetch it, for as long as that takes
// (https://learn.microsoft.com/windows/win32/fileio/file-attribute-constants).
const cloudAttributes = windows.FILE_ATTRIBUTE_OFFLINE | windows.FILE_ATTRIBUTE_RECALL_ON_OPEN |
	windows.FILE_ATTRIBUTE_RECALL_ON_DATA_ACCESS

// Reparse tags of cloud files: those of the cloud files filter, which
// OneDrive uses (CLOUD and CLOUD_1 to CLOUD_F differ only in the bits of
// cloudTagMask), and OneDrive's own older tag ([MS-FSCC] 2.1.2.1,
// https://learn.microsoft.com/openspecs/windows_protocols/ms-fscc/c8e77b37-3909-4fe6-a4ea-2b9d423b1ee4).
const (
	ioReparseTagCloud    = 0x9000001A
	cloudTagMask         = 0x0000F000
	ioReparseTagOneDrive = 0x80000021
)

// noteFlags open a note: read-only, the reparse point itself rather than
// what it points to, and never fetching a cloud file's data.
const noteFlags = os.O_RDONLY | windows.FILE_FLAG_OPEN_REPARSE_POINT | windows.FILE_FLAG_OPEN_NO_RECALL

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
// point, symbolic link or a kind yet to come). Which kind of reparse point
// a file is shows only in its tag, on an opened handle (handleInfo).
func attributeRefusal(attrs uint32) error {
	switch {
	case attrs&cloudAttributes != 0:
		return errCloudFile
	case attrs&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0:
		return errReparsePoint
	}
	return nil
}

// handle describes an opened file.
type handle struct {
	windows.ByHandleFileInformation
	kind uint32 // GetFileType
	tag  uint32 // reparse tag, for a reparse point
}

// handleInfo describes an opened file from its handle.
func handleInfo(f *os.File) (handle, error) {
	var d handle
	conn, err := f.SyscallConn()
	if err != nil {
		return d, err
	}
	cerr := conn.Control(func(fd uintptr) {
		h := windows.Handle(fd)
		if err = windows.GetFileInformationByHandle(h, &d.ByHandleFileInformation); err != nil {
			return
		}
		if d.kind, err = windows.GetFileType(h); err != nil {
			return
		}
		if d.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
			var info struct{ FileAttributes, ReparseTag uint32 } // FILE_ATTRIBUTE_TAG_INFO
			err = windows.GetFileInformationByHandleEx(h, windows.FileAttributeTagInfo,
				(*byte)(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
			d.tag = info.ReparseTag
		}
	})
	return d, errors.Join(cerr, err)
}

// check applies the file rules to an opened note: a regular file on disk,
// not a reparse point or placeholder, of at most MaxFileSize bytes, with
// one hard link.
func (d *handle) check() error {
	size := int64(d.FileSizeHigh)<<32 | int64(d.FileSizeLow)
	switch {
	case d.tag&^cloudTagMask == ioReparseTagCloud || d.tag == ioReparseTagOneDrive:
		return errCloudFile
	case attributeRefusal(d.FileAttributes) != nil:
		return attributeRefusal(d.FileAttributes)
	case d.kind != windows.FILE_TYPE_DISK || d.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY != 0:
		return errNotRegular
	case size > MaxFileSize:
		return errTooLarge
	case d.NumberOfLinks > 1:
		return errHardLinks
	}
	return nil
}

// sameFile reports whether d and e describe the same file.
func (d *handle) sameFile(e *handle) bool {
	return d.VolumeSerialNumber == e.VolumeSerialNumber &&
		d.FileIndexHigh == e.FileIndexHigh && d.FileIndexLow == e.FileIndexLow
}
