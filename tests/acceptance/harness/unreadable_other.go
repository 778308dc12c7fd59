//go:build !unix

package harness

func unreadableFilesPossible() bool { return false }
