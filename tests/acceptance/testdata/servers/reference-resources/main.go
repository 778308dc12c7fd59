// Command reference-resources is a correct practice-notes server that also offers resources.
package main

import "practice-notes/tests/acceptance/testdata/servers/fixture"

func main() { fixture.Main(fixture.Options{Resources: true}) }
