package result

// SweepQuantiles are the quantiles of a sweep's band, in the order of
// SweepBand.Q: the 10-90 % and 25-75 % bands and the median.
var SweepQuantiles = [5]float64{0.10, 0.25, 0.50, 0.75, 0.90}

// SweepEnds is how many runs of each end of the ranking by final value a
// chart of a sweep draws as lines.
const SweepEnds = 5

// SweepTag is what a chart of a sweep draws of one scalar tag: the band
// of its runs' values per step and the runs with the lowest and highest
// final values.
type SweepTag struct {
	Band SweepBand
	// Low and High are the series (their indices in the tag's Series)
	// with the SweepEnds lowest and highest finite final values, lowest
	// first and highest first, each drawn at Scalars.MaxPoints points.
	Low, High []SweepEnd
	// NonFinite counts the tag's series whose final value is not finite.
	NonFinite int
}

// SweepEnd is an extreme run of a sweep's chart, drawn.
type SweepEnd struct {
	Series  int
	Draw    []int
	Buckets []Bucket
}

// SweepBand is the per-step summary of one tag across the runs that have
// it, at Scalars.MaxPoints steps at most, evenly spread.
type SweepBand struct {
	Steps []int64
	// Q holds, per quantile of SweepQuantiles, its value at each step.
	Q [len(SweepQuantiles)][]float64
	// N is how many runs had a finite value at each step.
	N []int
}
