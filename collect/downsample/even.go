package downsample

// Even returns the indices, in increasing order, of at most budget of n
// steps spread evenly from the first to the last, both kept: all n when
// they fit or budget <= 0 (no limit). Media pages keep the steps it
// chooses of each series of images or clips.
func Even(n, budget int) []int {
	if budget <= 0 || n <= budget {
		budget = n
	}
	keep := make([]int, 0, budget)
	for i := range budget {
		if budget == 1 {
			return append(keep, n-1) // the last: what training ended with
		}
		keep = append(keep, i*(n-1)/(budget-1))
	}
	return keep
}
