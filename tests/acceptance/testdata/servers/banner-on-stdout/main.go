// Command banner-on-stdout is broken: it prints a banner on stdout before speaking JSON-RPC.
package main

import "practice-notes/tests/acceptance/testdata/servers/fixture"

func main() { fixture.Main(fixture.Options{Banner: true}) }
