package boundary

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
)

// maxAbandoned is how many file-system operations whose caller gave up may
// still be running in the kernel before a Root refuses to start another.
// Each holds a goroutine, a descriptor and perhaps a read buffer until the
// kernel returns, which on a stalled network or FUSE mount may be never.
const maxAbandoned = 64

// ErrNotInTime is the reason given for a note that was not read before the
// caller's deadline: the file system did not answer, or too many earlier
// reads are still waiting for it.
var ErrNotInTime = errors.New("not read in time (the file system did not answer)")

// An operation's state, for abandonment.
const (
	running int32 = iota
	finished
	abandoned
)

// await runs op on its own goroutine and returns when op has returned or
// ctx has ended, whichever is first. A system call such as read(2) on a
// stalled mount cannot be interrupted, so an operation still running when
// ctx ends is abandoned: await returns at once an error wrapping both
// ErrNotInTime and ctx's error, and op runs on until the kernel returns,
// counted in r.abandoned until then. While maxAbandoned operations are so
// counted, await refuses to start another and returns ErrNotInTime. When
// ctx has ended before op could start, await returns ctx's error alone.
// So op may still be running exactly when the error wraps ErrNotInTime.
//
// A panic in op is raised again on the caller's goroutine; one in an
// abandoned op is dropped, as nobody is left to receive it.
func (r *Root) await(ctx context.Context, op func()) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if ctx.Done() == nil {
		op() // nothing can end the wait
		return nil
	}
	if r.abandoned.Load() >= maxAbandoned {
		return ErrNotInTime
	}
	var (
		state    atomic.Int32
		done     = make(chan struct{})
		panicked any
	)
	go func() {
		defer func() {
			panicked = recover()
			if !state.CompareAndSwap(running, finished) {
				r.abandoned.Add(-1)
			}
			close(done)
		}()
		op()
	}()
	select {
	case <-done:
	case <-ctx.Done():
		r.abandoned.Add(1)
		if state.CompareAndSwap(running, abandoned) {
			return fmt.Errorf("%w: %w", ErrNotInTime, ctx.Err())
		}
		r.abandoned.Add(-1) // op finished meanwhile
		<-done
	}
	if panicked != nil {
		panic(panicked)
	}
	return nil
}
