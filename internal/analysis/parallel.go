package analysis

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// parallelEach calls do(i) for every i in [0, n) on all cores, and
// returns ctx's error, without calling do again, once ctx is done. A
// panic in do is raised again in the caller's goroutine, with the stack
// of the goroutine that raised it: one left in a worker would end the
// process before anyone could report it.
func parallelEach(ctx context.Context, n int, do func(i int)) error {
	var next atomic.Int64
	var panics atomic.Pointer[string]
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil {
					s := fmt.Sprintf("%v\n\n%s", v, debug.Stack())
					panics.CompareAndSwap(nil, &s)
				}
			}()
			for i := int(next.Add(1)) - 1; i < n && ctx.Err() == nil; i = int(next.Add(1)) - 1 {
				do(i)
			}
		})
	}
	wg.Wait()
	if p := panics.Load(); p != nil {
		panic(*p)
	}
	return ctx.Err()
}

// parallel is parallelEach for work that can fail: it returns ctx's
// error when ctx is done, else the error of the lowest i that failed.
func parallel(ctx context.Context, n int, f func(i int) error) error {
	errs := make([]error, n)
	if err := parallelEach(ctx, n, func(i int) { errs[i] = f(i) }); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
