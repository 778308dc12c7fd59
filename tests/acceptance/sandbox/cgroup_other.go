//go:build !linux

package sandbox

import (
	"errors"
	"runtime"
)

// runCgroup exists on Linux only (cgroup_linux.go).
type runCgroup struct{}

func newRunCgroup(Limits) (*runCgroup, error) {
	return nil, errors.New("cgroups exist only on Linux, not " + runtime.GOOS)
}

func (*runCgroup) add(int) error          { return nil }
func (*runCgroup) counts() Counts         { return Counts{} }
func (*runCgroup) remove()                {}
func (*runCgroup) describe(Limits) string { return "" }
