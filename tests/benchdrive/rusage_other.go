//go:build !unix

package main

import "os"

// maxRSSKiB returns 0: this system has no ru_maxrss.
func maxRSSKiB(*os.ProcessState) int64 { return 0 }
