#!/bin/sh
# Reserves 70 GB of address space at start, writable and never touched,
# as Bun 1.3 does, then runs the correct Python server in the same
# process: a limit that counts reservations (RLIMIT_DATA) would stop it
# before it answers; one that measures memory in use does not.
exec python3 -c '
import mmap, runpy, sys
reserved = mmap.mmap(-1, 70 * 10**9, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | getattr(mmap, "MAP_NORESERVE", 0x4000), prot=mmap.PROT_READ | mmap.PROT_WRITE)
sys.argv = [sys.argv[1], "--root", sys.argv[2]]
runpy.run_path(sys.argv[0], run_name="__main__")
' "$(dirname "$0")/../learners/python/server.py" "$1"
