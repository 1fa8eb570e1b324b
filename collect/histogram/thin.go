package histogram

// Thin returns the indices of at most budget of n steps, spread evenly
// from the first to the last, which is always kept: the steps a page
// draws when it cannot draw them all. A budget below 1 keeps every step.
func Thin(n, budget int) []int {
	if budget < 1 || n <= budget {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	if budget == 1 {
		return []int{n - 1}
	}
	idx := make([]int, budget)
	for k := range idx {
		// Rounded k*(n-1)/(budget-1): distinct since n > budget.
		idx[k] = (2*k*(n-1) + budget - 1) / (2 * (budget - 1))
	}
	return idx
}
