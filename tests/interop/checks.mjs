// Shared checks for the interop clients: each prints one line and the run
// ends with "N passed, N failed".
let passed = 0;
let failed = 0;

export function check(name, ok, detail = "") {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? ": " + detail : ""}`);
}

// refusedRead checks that reading uri is a JSON-RPC error whose message
// names no path outside the notes folder.
export async function refusedRead(client, uri) {
  try {
    const res = await client.readResource({ uri });
    check(`resources/read ${uri} refused`, false, `returned ${JSON.stringify(res).slice(0, 200)}`);
  } catch (err) {
    const leaks = /etc|passwd|\/work|\/tmp|\/home/.test(err.message);
    check(`resources/read ${uri} refused`, err.code === -32602 && !leaks, `JSON-RPC error ${err.code}: ${err.message}`);
  }
}

export function summary() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}
