package series

import "sort"

// List is the kept entries of one time series of any kind (histograms,
// images, text...), under the same restart rule as Scalars.
type List[T any] struct {
	Steps []int64 // Steps[i] is the step of Items[i]
	Items []T
	// Dropped counts the entries that restarts replaced.
	Dropped int
}

// Add appends item at step. Unless keepAll is set, an item whose step is at
// or below the last kept step first drops every kept item with a step at or
// above its own.
func (l *List[T]) Add(step int64, item T, keepAll bool) {
	if n := len(l.Steps); !keepAll && n > 0 && step <= l.Steps[n-1] {
		l.Purge(step)
	}
	l.Steps = append(l.Steps, step)
	l.Items = append(l.Items, item)
}

// Purge drops the kept items with a step at or above step.
func (l *List[T]) Purge(step int64) {
	i := sort.Search(len(l.Steps), func(i int) bool { return l.Steps[i] >= step })
	l.Dropped += len(l.Steps) - i
	clear(l.Items[i:]) // let dropped payloads be collected
	l.Steps, l.Items = l.Steps[:i], l.Items[:i]
}
