package record

// testChecks is the test-to-check map: each of the specification's eight
// acceptance tests and the harness checks that refine it. A record that
// claims a test passed is contradicted by a failure of any check listed
// for it. Checks listed under no test (protocol basics 8.1-8.7, 9, 10,
// 12, 14, 15, 19, 21, 22) refine other rules of the specification; a claim
// about every check, or one naming them, speaks for them.
var testChecks = [9][]string{
	1: {"1"},             // sign-in returns the exact N2 passage (other cases are the capitalisation rule: 9, 10)
	2: {"2", "11"},       // an absent phrase finds nothing; sign.in, (N2), [ and * are absent as written
	3: {"3"},             // a valid file inside the root is read
	4: {"4", "13"},       // ../outside.md and absolute paths; a root or path argument pointing outside
	5: {"5", "17", "18"}, // a symlink outside; one into a sibling named like the root; directory links and chains
	6: {"6", "20"},       // oversized query and file; a FIFO, a directory named x.md, a dangling link, a binary file
	7: {"7", "16"},       // fixture checksums unchanged; nothing written into HOME or TMPDIR
	8: {"8"},             // discovery and a tool call over stdio in a separate process
}

// testOf returns the acceptance test a check refines, or 0.
func testOf(id string) int {
	for t := 1; t <= 8; t++ {
		for _, c := range testChecks[t] {
			if c == id {
				return t
			}
		}
	}
	return 0
}

// testTitles names the tests as the specification words them, for feedback.
var testTitles = [9]string{
	1: "test 1 (sign-in returns the exact N2 passage)",
	2: "test 2 (an absent phrase returns no matches)",
	3: "test 3 (a valid file inside practice-data is read)",
	4: "test 4 (../outside.md and absolute paths rejected)",
	5: "test 5 (a symlink pointing outside rejected)",
	6: "test 6 (oversized file and query give bounded errors)",
	7: "test 7 (checksums unchanged)",
	8: "test 8 (tool discovery and tool call)",
}
