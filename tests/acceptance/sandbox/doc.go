// Package sandbox runs a grader's untrusted server processes: each in a
// fresh HOME and TMPDIR, a minimal environment, under limits, and on Linux,
// where the kernel allows it, in private namespaces with a root of its own
// holding only its folder, the run's folders and the system's and
// toolchains' folders (visible_linux.go), no network and no privileges.
// What held is measured by a probe, never assumed, and said in one
// sentence for the report.
//
// Lifecycle:
//
//  1. The program calls [Main] first in main (a test binary: in TestMain).
//     The stage of every server process is this program started again;
//     there Main runs the stage (or the probe) and exits, so the program's
//     own main never runs in it. No init function does this: a program
//     that imports the package is not taken over unless it asks.
//  2. [New] prepares one run: the run's folder (homes, temp folders and
//     the toolchains' and runtimes' caches), the servers' environment, a
//     cgroup for the run's processes where one can be made, and, unless
//     isolation is off, the probe, started as a server would be, whose
//     result decides whether the run is isolated.
//  3. For each server process the grader makes its folders
//     ([Sandbox.ProcessDirs]), builds the process ([Sandbox.Command], with
//     [Sandbox.Env]) and starts it ([Sandbox.Start]). The stage is the
//     first process of new mount, network and PID namespaces: it waits
//     until it is in the run's cgroup, builds the server's root, drops every
//     privilege and starts the server's command line under its own uid.
//     When the server exits the stage exits, and the kernel kills all the
//     server left behind in its PID namespace. [Terminate] and [Kill] end
//     it earlier.
//  4. After the process ended, [Sandbox.Leftovers] says what it wrote into
//     its HOME, TMPDIR or config folder, and [Sandbox.RuntimeFiles] what
//     its runtime wrote by itself, which is not the server's doing.
//  5. [Sandbox.Remove] ends the run: it kills what is left in the cgroup,
//     removes it, and removes the run's folders.
//
// A runtime's own caches (Go's build cache, Python's bytecode, Node's
// compile cache, npm's, Bun's and Deno's) go to folders of the run, never
// into the process's HOME or TMPDIR, so that what is left there is what the
// server's own code wrote; a runtime that ignores the variable and writes
// at its own path in HOME or TMPDIR (~/.bun/install/cache, say) has those
// files listed as its own, not left to the server.
package sandbox
