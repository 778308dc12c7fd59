package boundary

import "testing"

// eachOpenPath runs f with r opening notes with one openat2 call, where
// the kernel has it, and again forced onto the fallback that opens one
// element at a time (as without openat2: before Linux 5.6, or where
// seccomp refuses it).
func eachOpenPath(t *testing.T, r *Root, f func(t *testing.T)) {
	t.Helper()
	if r.mount.xdev {
		t.Run("openat2", f)
	}
	saved := r.mount.xdev
	r.mount.xdev = false
	defer func() { r.mount.xdev = saved }()
	t.Run("element by element", f)
}
