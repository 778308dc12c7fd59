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

// TreeUsage is what process pid and every process below it have used so
// far, read from /proc: their CPU time, how long their threads have
// waited for a CPU, and whether one of them is running now rather than
// asleep. A process that ended is not counted; ok is false when pid
// itself cannot be read.
func TreeUsage(pid int) (u Usage, ok bool) {
	return treeUsage(pid, true)
}

// TreeCPU is TreeUsage's CPU time alone, without reading each thread.
func TreeCPU(pid int) (cpu time.Duration, ok bool) {
	u, ok := treeUsage(pid, false)
	return u.CPU, ok
}

func treeUsage(pid int, threads bool) (u Usage, ok bool) {
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
		u.CPU += time.Duration(ut+st) * time.Second / userHZ
		tasks, _ := os.ReadDir(dir + "/task")
		for _, t := range tasks {
			task := dir + "/task/" + t.Name()
			if threads {
				if tf := statFields(task + "/stat"); tf != nil && tf[0] == "R" {
					u.Running = true
				}
				u.Queued += runDelay(task + "/schedstat")
			}
			kids, _ := os.ReadFile(task + "/children")
			for _, k := range strings.Fields(string(kids)) {
				if n, err := strconv.Atoi(k); err == nil {
					walk(n)
				}
			}
		}
		return true
	}
	ok = walk(pid)
	return u, ok
}

// runDelay is the second field of a thread's schedstat: nanoseconds spent
// runnable on a run queue, waiting for a CPU. 0 when it cannot be read.
func runDelay(path string) time.Duration {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	if f := strings.Fields(string(b)); len(f) >= 2 {
		ns, _ := strconv.ParseInt(f[1], 10, 64)
		return time.Duration(ns)
	}
	return 0
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
