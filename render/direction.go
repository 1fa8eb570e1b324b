package render

import "github.com/trainreport/trainreport/internal/analysis/result"

// This file holds the one rule of which way a metric is better, by its
// name: lower for loss- and error-like names, higher for accuracy-like
// ones, unknown otherwise. Every ranking of the report uses it: summary.md's
// key metrics and sweep rankings, the comparison with a baseline, the
// overview's sweep summary (best and worst runs per metric) and the
// Scalars page's best and worst runs.

// direction is which way a metric is better, as its name says: the
// values of result.Direction, with the methods the pages need.
type direction int

const (
	unknownBetter direction = iota
	lowerBetter
	higherBetter
)

// String is the direction as summary.json writes it.
func (d direction) String() string { return result.Direction(d).String() }

// order says how a ranking by a metric of this direction is ordered.
func (d direction) order() string {
	switch d {
	case lowerBetter:
		return "lower is better (by its name), best first"
	case higherBetter:
		return "higher is better (by its name), best first"
	}
	return "highest first (which is better is not known)"
}

// betterOf says which way the metric called name is better
// (result.BetterOf: the analysis and the outputs share the rule).
func betterOf(name string) direction {
	return direction(result.BetterOf(name))
}
