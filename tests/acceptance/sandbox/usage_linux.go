//go:build linux

package sandbox

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of the CPU times in /proc/PID/stat: fixed at 100 by
// the kernel's interface to user space, whatever the kernel's own HZ.
const userHZ = 100

// TreeUsage is the CPU time (user and system) that process pid and every
// process below it have used so far, and whether one of them is running
// now rather than asleep, read from /proc. A process that ended is not
// counted; ok is false when pid itself cannot be read.
func TreeUsage(pid int) (cpu time.Duration, running, ok bool) {
	return treeUsage(pid, true)
}

// TreeCPU is TreeUsage's CPU time alone, without reading each thread's
// state.
func TreeCPU(pid int) (cpu time.Duration, ok bool) {
	cpu, _, ok = treeUsage(pid, false)
	return cpu, ok
}

func treeUsage(pid int, states bool) (cpu time.Duration, running, ok bool) {
	seen := map[int]bool{}
	var walk func(pid int) bool
	walk = func(pid int) bool {
		if seen[pid] {
			return true
		}
		seen[pid] = true
		dir := "/proc/" + strconv.Itoa(pid)
		f := statFields(dir + "/stat")
		if f == nil {
			return false
		}
		// utime and stime, fields 14 and 15, sum the process's threads.
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		cpu += time.Duration(ut+st) * time.Second / userHZ
		tasks, _ := os.ReadDir(dir + "/task")
		for _, t := range tasks {
			if states && !running {
				if tf := statFields(dir + "/task/" + t.Name() + "/stat"); tf != nil && tf[0] == "R" {
					running = true
				}
			}
			kids, _ := os.ReadFile(dir + "/task/" + t.Name() + "/children")
			for _, k := range strings.Fields(string(kids)) {
				if n, err := strconv.Atoi(k); err == nil {
					walk(n)
				}
			}
		}
		return true
	}
	ok = walk(pid)
	return cpu, running, ok
}

// statFields returns the fields of a /proc stat file from field 3 (the
// state) on, or nil. The command name before them may hold spaces and
// parentheses: they start after its last ')'.
func statFields(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil
	}
	if f := strings.Fields(s[i+1:]); len(f) >= 13 {
		return f
	}
	return nil
}
