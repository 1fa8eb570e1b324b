package render

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// inOrder computes produce(i) for i in [0, n) on all cores and hands each
// result to emit in index order, holding at most inOrderWindow() results
// at a time, so that files can be formatted in parallel and still written
// in order, with the memory in flight bounded.
func inOrder[T any](n int, produce func(i int) T, emit func(i int, v T) error) error {
	window := inOrderWindow()
	results := make([]chan T, n)
	for i := range results {
		results[i] = make(chan T, 1)
	}
	slots := make(chan struct{}, window)
	var panics atomic.Pointer[string]
	done := make(chan struct{})
	defer close(done)
	go func() {
		for i := range n {
			select {
			case slots <- struct{}{}:
			case <-done:
				return
			}
			go func() {
				defer func() {
					if v := recover(); v != nil {
						panics.CompareAndSwap(nil, stackOf(v))
						var zero T
						results[i] <- zero
					}
				}()
				results[i] <- produce(i)
			}()
		}
	}()
	for i := range n {
		v := <-results[i]
		<-slots
		if p := panics.Load(); p != nil {
			panic(*p) // a bug: raised again where the caller can recover it
		}
		if err := emit(i, v); err != nil {
			return err
		}
	}
	return nil
}

// inOrderWindow is how many results inOrder holds at most: produced,
// being produced or waiting for their turn.
func inOrderWindow() int { return 2 * runtime.GOMAXPROCS(0) }

// parallel calls do(i) for i in [0, n) on all cores and returns when every
// call has.
func parallel(n int, do func(i int)) {
	var next atomic.Int64
	var panics atomic.Pointer[string]
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil {
					panics.CompareAndSwap(nil, stackOf(v))
				}
			}()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				do(i)
			}
		})
	}
	wg.Wait()
	if p := panics.Load(); p != nil {
		panic(*p)
	}
}

// stackOf describes a recovered panic with the stack of the goroutine
// that raised it, to be raised again in the caller's goroutine: a panic
// left in a worker would end the process before anyone could report it.
func stackOf(v any) *string {
	s := fmt.Sprintf("%v\n\n%s", v, debug.Stack())
	return &s
}
