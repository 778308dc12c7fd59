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

// A call's state.
const (
	running int32 = iota
	finished
	abandoned
)

// A call is one blocking file-system operation run on another goroutine
// than its caller's, which the caller may give up on. A system call such as
// read(2) on a stalled mount cannot be interrupted, so an operation still
// running when its caller gives up is abandoned: it runs on until the
// kernel returns, counted in its Root's abandoned until then, and its
// result and any panic are dropped, as nobody is left to receive them. A
// panic in an operation that was waited for is raised again on the
// caller's goroutine, where the server recovers it; left on the other
// goroutine it would end the process.
//
// Every Root operation that may block in the kernel (a walk, a read, a
// directory listed ahead of a walk) is run as a call. A call may be used
// again, by the same two goroutines, once it has been waited for and not
// abandoned.
type call struct {
	count    *atomic.Int64 // the Root's abandoned
	state    atomic.Int32
	done     chan struct{} // one token each time the operation returns
	panicked any
}

func (r *Root) newCall() *call {
	return &call{count: &r.abandoned, done: make(chan struct{}, 1)}
}

// mayStart reports whether another operation may be run as a call: fewer
// than maxAbandoned abandoned ones still wait on the kernel.
func (r *Root) mayStart() bool { return r.abandoned.Load() < maxAbandoned }

// run runs op on the goroutine doing the work, keeps a panic in it for the
// caller, and reports whether the caller still waits: false when the call
// was abandoned.
func (c *call) run(op func()) (waited bool) {
	defer func() {
		c.panicked = recover()
		waited = c.state.CompareAndSwap(running, finished)
		if !waited {
			c.count.Add(-1)
		}
		c.done <- struct{}{}
	}()
	op()
	return true
}

// wait returns once the operation has returned, or at once when ctx ends
// first, abandoning it, with an error wrapping both ErrNotInTime and ctx's
// error.
func (c *call) wait(ctx context.Context) error {
	select {
	case <-c.done:
	case <-ctx.Done():
		if c.abandon() {
			return fmt.Errorf("%w: %w", ErrNotInTime, ctx.Err())
		}
		<-c.done // the operation returned meanwhile
	}
	c.relay()
	return nil
}

// abandon gives the call up unless the operation has already returned, and
// reports whether it did.
func (c *call) abandon() bool {
	c.count.Add(1)
	if c.state.CompareAndSwap(running, abandoned) {
		return true
	}
	c.count.Add(-1)
	return false
}

// reuse readies a call that was waited for to run another operation.
func (c *call) reuse() { c.state.Store(running) }

// relay raises again a panic of the operation waited for.
func (c *call) relay() {
	if v := c.panicked; v != nil {
		c.panicked = nil
		panic(v)
	}
}

// await runs op as a call on a goroutine of its own and returns when op has
// returned or ctx has ended, whichever is first (see call): when op is
// abandoned, with an error wrapping both ErrNotInTime and ctx's error. While
// maxAbandoned operations are abandoned, await refuses to start another and
// returns ErrNotInTime. When ctx has ended before op could start, await
// returns ctx's error alone. So op may still be running exactly when the
// error wraps ErrNotInTime.
func (r *Root) await(ctx context.Context, op func()) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if ctx.Done() == nil {
		op() // nothing can end the wait
		return nil
	}
	if !r.mayStart() {
		return ErrNotInTime
	}
	c := r.newCall()
	go c.run(op)
	return c.wait(ctx)
}
