// Command reference is a correct practice-notes server (search only).
package main

import "practice-notes/tests/acceptance/testdata/servers/fixture"

func main() { fixture.Main(fixture.Options{}) }
