//go:build !windows

package boundary

// osReasons are the reasons only this system gives: none.
var osReasons []error
