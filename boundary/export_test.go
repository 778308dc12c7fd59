package boundary

import "practice-notes/boundary/seam"

// injectFaults installs h on r, which must not be in use yet (see
// seam.Options.Faults).
func (r *Root) injectFaults(h seam.Hook) { r.faults = h }
