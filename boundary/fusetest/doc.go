// Package fusetest serves a small read-only FUSE file system from inside a
// test, speaking the kernel's protocol on /dev/fuse directly, so that tests
// can make a read(2) of a regular file that truly blocks in the kernel, as
// on a network or cloud-sync folder that stopped answering. It also re-runs
// a test in a private mount namespace, so that nothing it mounts is seen
// outside the test, even if the test dies.
//
// Only what a walk and a read need is answered: LOOKUP, GETATTR, OPEN(DIR),
// READ(DIR), RELEASE(DIR), FLUSH, STATFS; everything else gets ENOSYS.
//
// InPrivateMountNamespace serves any test that mounts, FUSE or not. The
// package builds on Linux only; tests that use it are Linux-only too.
package fusetest
