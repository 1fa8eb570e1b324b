package result

// EvenSteps returns the indices of at most budget of n items spread evenly
// over them, in order, always with the last (the latest step of a series)
// and the first: which steps of a series a page shows within its budget.
// With budget >= n it returns every index; with budget < 1, none. It is
// here, a pure rule beside the results, so that the analysis and render
// choose the same steps (Media.Keep) without either computing for the
// other.
func EvenSteps(n, budget int) []int {
	if budget < 1 || n < 1 {
		return nil
	}
	if budget >= n {
		keep := make([]int, n)
		for i := range keep {
			keep[i] = i
		}
		return keep
	}
	if budget == 1 {
		return []int{n - 1}
	}
	keep := make([]int, budget)
	for i := range keep {
		// i*(n-1)/(budget-1) rounded down: 0 first, n-1 last, strictly
		// increasing since n > budget.
		keep[i] = i * (n - 1) / (budget - 1)
	}
	return keep
}
