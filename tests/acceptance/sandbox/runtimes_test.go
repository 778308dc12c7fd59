package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRuntimeCachesLeaveHomeAlone checks, without starting a process, that
// the environment of a server process sends each runtime's own cache to a
// folder of the run's, outside the HOME, TMPDIR and config folder that
// check 16 inspects. Where a variable is missing, the runtime writes into
// HOME or TMPDIR by itself (the comment says where), which check 16 then
// charges to the server.
func TestRuntimeCachesLeaveHomeAlone(t *testing.T) {
	base := t.TempDir()
	sb, err := New(context.Background(), Config{Base: base, Isolation: "off", Limits: DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Remove()
	home, tmp, err := sb.ProcessDirs("runtime-caches")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, kv := range sb.Env(filepath.Join(base, "root"), home, tmp) {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v // the last one counts, as for exec
	}
	for _, k := range []string{
		"BUN_RUNTIME_TRANSPILER_CACHE_PATH", // ~/.bun/install/cache/@t@
		"BUN_INSTALL_CACHE_DIR",             // ~/.bun/install/cache
		"BUN_TMPDIR",                        // $TMPDIR/bunx-UID-PACKAGE
		"DENO_DIR",                          // ~/.cache/deno
		"NODE_COMPILE_CACHE",                // $TMPDIR/node-compile-cache
		"npm_config_cache",                  // ~/.npm
		"COREPACK_HOME",                     // ~/.cache/node/corepack
		"PYTHONPYCACHEPREFIX",               // __pycache__ beside the module
		"UV_CACHE_DIR",                      // ~/.cache/uv
		"PIP_CACHE_DIR",                     // ~/.cache/pip
		"GOCACHE",                           // ~/.cache/go-build
		"GOTMPDIR",                          // $TMPDIR
	} {
		v, ok := env[k]
		if !ok {
			t.Errorf("%s is not set: the runtime writes its own cache where the server's HOME or TMPDIR is", k)
			continue
		}
		for _, d := range []string{home, tmp, configDir(home)} {
			if rel, err := filepath.Rel(d, v); err == nil && filepath.IsLocal(rel) || v == d {
				t.Errorf("%s=%s is inside %s, which check 16 inspects", k, v, d)
			}
		}
		if st, err := os.Stat(v); err != nil || !st.IsDir() {
			t.Errorf("%s=%s is not a folder: %v", k, v, err)
		}
	}
	for k, want := range map[string]string{
		"PYTHONDONTWRITEBYTECODE": "1", // no __pycache__ beside the learner's modules, on any Python
		"TSX_DISABLE_CACHE":       "1", // $TMPDIR/tsx-UID
	} {
		if diff := cmp.Diff(want, env[k]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", k, diff)
		}
	}
}
