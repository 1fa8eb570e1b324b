package render

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// inOrder computes produce(i) for i in [0, n) on all cores and hands each
// result to emit in index order, holding at most a few results at a time,
// so that files can be formatted in parallel and still written in order.
func inOrder(n int, produce func(i int) []byte, emit func(i int, b []byte) error) error {
	window := 2 * runtime.GOMAXPROCS(0)
	results := make([]chan []byte, n)
	for i := range results {
		results[i] = make(chan []byte, 1)
	}
	slots := make(chan struct{}, window)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for i := range n {
			select {
			case slots <- struct{}{}:
			case <-done:
				return
			}
			go func() { results[i] <- produce(i) }()
		}
	}()
	for i := range n {
		b := <-results[i]
		<-slots
		if err := emit(i, b); err != nil {
			return err
		}
	}
	return nil
}

// parallel calls do(i) for i in [0, n) on all cores and returns when every
// call has.
func parallel(n int, do func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				do(i)
			}
		})
	}
	wg.Wait()
}
