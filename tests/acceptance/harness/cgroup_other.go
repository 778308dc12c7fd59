//go:build !linux

package harness

import (
	"errors"
	"runtime"
)

// runCgroup exists on Linux only (cgroup_linux.go).
type runCgroup struct{}

type cgCounts struct{ oomKills, forkRefusals int64 }

func newRunCgroup(Limits) (*runCgroup, error) {
	return nil, errors.New("cgroups exist only on Linux, not " + runtime.GOOS)
}

func (*runCgroup) add(int) error          { return nil }
func (*runCgroup) counts() cgCounts       { return cgCounts{} }
func (*runCgroup) remove()                {}
func (*runCgroup) describe(Limits) string { return "" }
