// Command no-size-limit is broken: it searches files of any size.
package main

import "practice-notes/tests/acceptance/testdata/servers/fixture"

func main() { fixture.Main(fixture.Options{NoSizeLimit: true}) }
