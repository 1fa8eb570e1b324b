package series

import (
	"cmp"
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
	// KeepSuperseded keeps the entries restarts replace in Superseded
	// instead of only counting them.
	KeepSuperseded bool
	// Superseded is the replaced entries, in the order they were taken
	// off, and SupersededSteps their steps, when KeepSuperseded is set.
	Superseded      []T
	SupersededSteps []int64
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
	if l.KeepSuperseded {
		l.Superseded = append(l.Superseded, l.Items[i:]...)
		l.SupersededSteps = append(l.SupersededSteps, l.Steps[i:]...)
	}
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
			if l.KeepSuperseded {
				l.Superseded = append(l.Superseded, l.Items[i])
				l.SupersededSteps = append(l.SupersededSteps, st)
			}
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

// Merged returns the kept entries and, when KeepSuperseded is set, the
// superseded ones, sorted by step, the entries of one step in the order
// they were written (so the line's, written last, ends each step), with
// superseded(e) called on each superseded entry. The line must be in
// increasing step order, as Add without keepAll keeps it.
func (l *List[T]) Merged(superseded func(*T)) []T {
	if len(l.Superseded) == 0 {
		return l.Items
	}
	// The entries of a step are taken off in the order written: the line
	// holds one entry a step at a time. A stable sort by step keeps it.
	idx := make([]int, len(l.Superseded))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(l.SupersededSteps[a], l.SupersededSteps[b]) })
	out := make([]T, 0, len(l.Items)+len(l.Superseded))
	j := 0
	for k, step := range l.Steps {
		for ; j < len(idx) && l.SupersededSteps[idx[j]] <= step; j++ {
			out = append(out, l.Superseded[idx[j]])
			superseded(&out[len(out)-1])
		}
		out = append(out, l.Items[k])
	}
	for ; j < len(idx); j++ {
		out = append(out, l.Superseded[idx[j]])
		superseded(&out[len(out)-1])
	}
	return out
}
