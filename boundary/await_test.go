package boundary

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestCall: an operation waited for gives its result and its panic to the
// caller; one still running when the caller's context ends is abandoned at
// once, counted until it returns, and its panic dropped; a call waited for
// runs the next operation.
func TestCall(t *testing.T) {
	var r Root
	tests := []struct {
		name      string
		op        func(release <-chan struct{})
		deadline  time.Duration // 0: none
		wantErr   error         // also matched: the context's error, when abandoned
		wantPanic any
	}{
		{name: "returns", op: func(<-chan struct{}) {}},
		{name: "panics", op: func(<-chan struct{}) { panic("op panicked") }, wantPanic: "op panicked"},
		{name: "abandoned", op: func(release <-chan struct{}) { <-release }, deadline: 50 * time.Millisecond, wantErr: ErrNotInTime},
		{name: "abandoned, then panics", op: func(release <-chan struct{}) { <-release; panic("dropped") }, deadline: 50 * time.Millisecond, wantErr: ErrNotInTime},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			if tt.deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.deadline)
				defer cancel()
			}
			release := make(chan struct{})
			c := r.newCall()
			waited := make(chan bool, 1)
			go func() { waited <- c.run(func() { tt.op(release) }) }()
			var err error
			got := func() (v any) {
				defer func() { v = recover() }()
				err = c.wait(ctx)
				return nil
			}()
			if got != tt.wantPanic {
				t.Errorf("wait panicked with %v; want %v", got, tt.wantPanic)
			}
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("wait: %v; want %v", err, tt.wantErr)
			}
			if tt.wantErr != nil {
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("wait: %v; want it to match the context's error too", err)
				}
				if n := r.abandoned.Load(); n != 1 {
					t.Errorf("%d calls counted as abandoned while the operation runs; want 1", n)
				}
			}
			close(release)
			if w := <-waited; w != (tt.wantErr == nil) {
				t.Errorf("run reported waited %v; want %v", w, tt.wantErr == nil)
			}
			if n := r.abandoned.Load(); n != 0 {
				t.Errorf("%d calls counted as abandoned once the operation returned; want 0", n)
			}
			if tt.wantErr != nil {
				return
			}
			// Waited for: the call runs another operation.
			c.reuse()
			ran := false
			go c.run(func() { ran = true })
			if err := c.wait(context.Background()); err != nil || !ran {
				t.Errorf("reused call: ran %v, %v", ran, err)
			}
		})
	}
}
