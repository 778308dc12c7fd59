// Command follows-symlinks is broken: it searches through symlinks that point outside the root.
package main

import "practice-notes/tests/acceptance/testdata/servers/fixture"

func main() { fixture.Main(fixture.Options{FollowSymlinks: true}) }
