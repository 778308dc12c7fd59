package sandbox

// runtimeCaches are the variables that send what a toolchain or runtime
// writes by itself, whatever program it runs, to a folder of the run's
// own (toolcache/dir, shared by the run's processes): these are not the
// server's writes, and must not land in its HOME or TMPDIR, where check 16
// would charge them to the server. The comment says where each would go
// otherwise. A cache the server's own code chooses (XDG_CACHE_HOME, say)
// is not redirected: that is the server writing.
//
// Go's build cache and temporary folder are set apart (see New): under
// isolation each process builds into an overlay of the grader's cache.
var runtimeCaches = []struct{ env, dir string }{
	{"npm_config_cache", "npm"},                             // ~/.npm: npm's and npx's packages and logs
	{"PYTHONPYCACHEPREFIX", "pycache"},                      // __pycache__ beside each module (PYTHONDONTWRITEBYTECODE stops it first)
	{"UV_CACHE_DIR", "uv"},                                  // ~/.cache/uv
	{"PIP_CACHE_DIR", "pip"},                                // ~/.cache/pip
	{"DENO_DIR", "deno"},                                    // ~/.cache/deno: Deno's modules and compiled code
	{"BUN_INSTALL_CACHE_DIR", "bun"},                        // ~/.bun/install/cache: Bun's packages
	{"BUN_RUNTIME_TRANSPILER_CACHE_PATH", "bun-transpiler"}, // ~/.bun/install/cache/@t@: Bun's transpiled sources
	{"NODE_COMPILE_CACHE", "node-compile-cache"},            // $TMPDIR/node-compile-cache, once a program (npm 11 does) enables it on Node 22.1 or later
	{"COREPACK_HOME", "corepack"},                           // ~/.cache/node/corepack: the package managers Corepack fetches
	{"YARN_CACHE_FOLDER", "yarn"},                           // ~/.cache/yarn
}
