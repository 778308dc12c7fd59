package sandbox

import (
	"os"
	"testing"
)

// TestMain enters the sandbox's stage when the test binary was started as
// one (by the tests below, through New).
func TestMain(m *testing.M) {
	Main()
	os.Exit(m.Run())
}
