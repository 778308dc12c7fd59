package boundary

import "practice-notes/internal/seam"

// injectFaults installs h on r, which must not be in use yet (see
// seam.Options.Faults).
func (r *Root) injectFaults(h seam.Hook) { r.faults = h }
