// Command writes-into-root is broken: it writes a cache file into the practice root.
package main

import "practice-notes/tests/acceptance/testdata/servers/fixture"

func main() { fixture.Main(fixture.Options{WriteIntoRoot: true}) }
