package boundary

import (
	"context"

	"practice-notes/boundary/seam"
)

// fault runs the hook a test installed (see seam.Options.Faults), if any;
// a Root the program opens has none and makes no call.
func (r *Root) fault(ctx context.Context, op seam.Op, name string) error {
	if r.faults == nil {
		return nil
	}
	return r.faults(ctx, op, name)
}
