// Command invents-passage is broken: it makes up a passage when nothing matched.
package main

import "practice-notes/tests/acceptance/testdata/servers/fixture"

func main() { fixture.Main(fixture.Options{InventOnMiss: true}) }
