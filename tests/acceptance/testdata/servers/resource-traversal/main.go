// Command resource-traversal is broken: its resources/read joins the URI path to the root without checks.
package main

import "practice-notes/tests/acceptance/testdata/servers/fixture"

func main() { fixture.Main(fixture.Options{Resources: true, ResourceTraversal: true}) }
