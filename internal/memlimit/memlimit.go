// Package memlimit keeps a command within a memory budget, so that a
// report too big for the machine fails with its own message and exit
// status instead of the Go runtime's fatal "out of memory" (exit 2, the
// status of a usage error) or the kernel's OOM killer.
//
// Two parts: a soft limit (debug.SetMemoryLimit) a little under the
// budget, which makes the collector work harder as the heap nears it, and
// a watchdog that reads the memory the runtime holds (runtime/metrics)
// and, once it passes the budget, cancels the command's context with an
// *ExceededError as its cause. A command that does not stop soon after
// is ended by the caller's Hard function.
//
// What no watchdog can catch is one allocation too big for the machine:
// the runtime dies inside it. The readers' budgets, which bound every
// size a log claims before it is allocated, are what prevent those.
package memlimit

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// ExceededError is the cause of a context the watchdog cancelled.
type ExceededError struct {
	Limit, Used uint64 // bytes
	During      string // what the command was doing, as Phase last said; "" when unknown
}

func (e *ExceededError) Error() string {
	msg := fmt.Sprintf("memory budget of %s exceeded (%s in use)", FormatSize(e.Limit), FormatSize(e.Used))
	if e.During != "" {
		msg += " while " + e.During
	}
	return msg
}

// Options configure Start.
type Options struct {
	// Limit is the budget in bytes of the memory the Go runtime holds
	// from the system (what its own memory limit counts: everything
	// mapped, less what was returned). 0: no budget, Start does nothing.
	Limit uint64
	// Every is how often the watchdog reads the memory; 0 is
	// DefaultEvery.
	Every time.Duration
	// Grace is how long the command has, once cancelled, to return
	// before Hard is called; 0 is DefaultGrace. Hard is called at the
	// first reading after the cancel, too, that finds the memory past
	// 9/8 of the limit: the margin between the budget and what the
	// machine allows is being spent by a step that checks no context
	// (and one buffer grown by doubling can spend it in one allocation).
	Grace time.Duration
	// Hard ends a command that did not stop in time: it should print
	// the error and end the process. nil: the watchdog only cancels.
	Hard func(*ExceededError)
}

const (
	// DefaultEvery: a few hundred reads of runtime/metrics a minute cost
	// microseconds each, and at even a gigabyte a second the budget is
	// passed by a tenth of that before the watchdog sees it.
	DefaultEvery = 100 * time.Millisecond
	// DefaultGrace is long enough for every reader and writer, which
	// check their context between records and files, to return.
	DefaultGrace = 5 * time.Second
)

// softFraction is where the soft limit is set, as a fraction of the
// budget: the collector works harder from there, so that garbage never
// takes the memory past the budget, only live data does.
const softFraction = 0.9

type watchKey struct{}

// watch is a running watchdog, found from its context by Phase.
type watch struct {
	phase atomic.Pointer[string]
}

// Start starts the watchdog of opt over a command run with ctx, and sets
// the soft limit (unless GOMEMLIMIT or another caller set one). It
// returns the command's context, cancelled with an *ExceededError as its
// cause when the budget is passed (already, when it is passed now: then
// no watchdog is started, the command has nothing to do but return), and
// stop, which ends the watchdog and restores the soft limit. With
// opt.Limit 0 it returns ctx and a stop that does nothing.
func Start(ctx context.Context, opt Options) (context.Context, func()) {
	if opt.Limit == 0 {
		return ctx, func() {}
	}
	every, grace := opt.Every, opt.Grace
	if every <= 0 {
		every = DefaultEvery
	}
	if grace <= 0 {
		grace = DefaultGrace
	}
	restore := setSoftLimit(opt.Limit)
	w := &watch{}
	ctx, cancel := context.WithCancelCause(context.WithValue(ctx, watchKey{}, w))
	var exceeded *ExceededError
	var since time.Time
	// check reads the memory once and acts on it; it reports whether the
	// watchdog is done.
	check := func() bool {
		u := inUse()
		switch {
		case exceeded == nil && u > opt.Limit:
			during := ""
			if p := w.phase.Load(); p != nil {
				during = *p
			}
			exceeded, since = &ExceededError{Limit: opt.Limit, Used: u, During: during}, time.Now()
			cancel(exceeded)
		case exceeded != nil && (u > opt.Limit+opt.Limit/8 || time.Since(since) >= grace):
			if opt.Hard != nil {
				opt.Hard(exceeded)
			}
			return true
		}
		return false
	}
	if check() || exceeded != nil {
		// A budget passed already is known before any work: the command
		// only has to notice and return, and nothing is left to watch.
		return ctx, func() {
			cancel(nil)
			restore()
		}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if check() {
					return
				}
			}
		}
	})
	return ctx, func() {
		close(done)
		wg.Wait()
		cancel(nil)
		restore()
	}
}

// inUse returns the memory the runtime holds from the system: all it
// mapped, less what it returned (the runtime's own memory limit counts
// the same).
func inUse() uint64 {
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(samples)
	total, released := samples[0].Value.Uint64(), samples[1].Value.Uint64()
	return total - min(total, released)
}

// setSoftLimit sets the runtime's soft memory limit under limit, unless
// one is set already (by GOMEMLIMIT, or another Start), and returns what
// restores it: only if it is still the one set here.
func setSoftLimit(limit uint64) (restore func()) {
	cur := debug.SetMemoryLimit(-1)
	if cur != math.MaxInt64 || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	soft := int64(min(float64(limit)*softFraction, float64(math.MaxInt64/2)))
	debug.SetMemoryLimit(soft)
	return func() {
		if debug.SetMemoryLimit(-1) == soft {
			debug.SetMemoryLimit(cur)
		}
	}
}

// Phase records what the command run with ctx does from now on (in the
// present participle: "reading the logs"), for the message of a budget
// passed. Without a watchdog in ctx it does nothing.
func Phase(ctx context.Context, what string) {
	if w, ok := ctx.Value(watchKey{}).(*watch); ok {
		w.phase.Store(&what)
	}
}

// Exceeded returns the *ExceededError that cancelled ctx, or nil when the
// budget was not passed.
func Exceeded(ctx context.Context) *ExceededError {
	e, _ := context.Cause(ctx).(*ExceededError)
	return e
}
