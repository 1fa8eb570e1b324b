package series

import (
	"slices"
	"sort"
)

// List is the kept entries of one time series of any kind (histograms,
// images, text...), under the same restart rule as Scalars.
type List[T any] struct {
	Steps []int64 // Steps[i] is the step of Items[i]
	Items []T
	// Dropped counts the entries that restarts replaced.
	Dropped int
	// unsorted is set when Add with keepAll put a step below the last:
	// Purge then filters instead of cutting the tail.
	unsorted bool
}

// Add appends item at step. Unless keepAll is set, an item whose step is at
// or below the last kept step first drops every kept item with a step at or
// above its own.
func (l *List[T]) Add(step int64, item T, keepAll bool) {
	if n := len(l.Steps); n > 0 && step <= l.Steps[n-1] {
		if keepAll {
			l.unsorted = l.unsorted || step < l.Steps[n-1]
		} else {
			l.Purge(step)
		}
	}
	l.Steps = append(l.Steps, step)
	l.Items = append(l.Items, item)
}

// Purge drops the kept items with a step at or above step, wherever they
// are in the list.
func (l *List[T]) Purge(step int64) {
	if l.unsorted {
		l.filter(step)
		return
	}
	i := sort.Search(len(l.Steps), func(i int) bool { return l.Steps[i] >= step })
	l.Dropped += len(l.Steps) - i
	clear(l.Items[i:]) // let dropped payloads be collected
	l.Steps, l.Items = l.Steps[:i], l.Items[:i]
}

// filter is Purge on a list whose steps go back (TensorBoard's rule keeps
// them): every item at or above step is dropped, the others keep their
// order.
func (l *List[T]) filter(step int64) {
	n := 0
	for i, st := range l.Steps {
		if st >= step {
			continue
		}
		l.Steps[n], l.Items[n] = st, l.Items[i]
		n++
	}
	l.Dropped += len(l.Steps) - n
	clear(l.Items[n:]) // let dropped payloads be collected
	l.Steps, l.Items = l.Steps[:n], l.Items[:n]
	l.unsorted = !slices.IsSorted(l.Steps)
}
