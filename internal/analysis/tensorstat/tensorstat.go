// Package tensorstat summarises numeric tensors for the tensors page: the
// statistics of one tensor (shape aside: min, max, mean over finite values,
// counts of NaN, +Inf, -Inf and zeros), and the re-binning of a series of
// tensors onto one shared grid, so that their histograms line up in a
// heat map of step x bin.
package tensorstat

import "math"

// Stats summarises the values of one tensor.
type Stats struct {
	Count  int // every element
	Finite int // elements that are neither NaN nor infinite
	NaN    int
	PosInf int
	NegInf int
	Zero   int // elements equal to 0 (-0 included)
	// Min, Max and Mean are over the finite elements; they are NaN when
	// there are none (an empty tensor, or one of only NaN and infinities).
	Min, Max, Mean float64
}

// Of computes the statistics of values (a tensor's elements, in any
// order). Integer and bool tensors arrive as float64 from
// collect.TensorEntry.Load and are summarised the same way.
func Of(values []float64) Stats {
	s := Stats{Count: len(values), Min: math.NaN(), Max: math.NaN(), Mean: math.NaN()}
	// The mean is a compensated (Neumaier) sum over the count, exact for
	// integer tensors; a running mean stands in should the sum overflow.
	var sum, comp, running float64
	for _, v := range values {
		switch {
		case math.IsNaN(v):
			s.NaN++
			continue
		case math.IsInf(v, 1):
			s.PosInf++
			continue
		case math.IsInf(v, -1):
			s.NegInf++
			continue
		}
		if v == 0 {
			s.Zero++
		}
		s.Finite++
		if s.Finite == 1 {
			s.Min, s.Max = v, v
		} else {
			s.Min, s.Max = min(s.Min, v), max(s.Max, v)
		}
		t := sum + v
		if math.Abs(sum) >= math.Abs(v) {
			comp += (sum - t) + v
		} else {
			comp += (v - t) + sum
		}
		sum = t
		running += (v - running) / float64(s.Finite)
	}
	if s.Finite > 0 {
		s.Mean = (sum + comp) / float64(s.Finite)
		if math.IsInf(sum, 0) || math.IsNaN(s.Mean) || math.IsInf(s.Mean, 0) {
			s.Mean = running
		}
	}
	return s
}

// HasFinite reports whether the tensor holds a finite value, so that Min,
// Max and Mean are numbers.
func (s Stats) HasFinite() bool { return s.Finite > 0 }

// Grid is a set of equal-width bins over [Lo, Hi]: bin i covers
// [Lo + i*w, Lo + (i+1)*w) with w = (Hi-Lo)/Bins, and the last bin also
// holds Hi, as with numpy.histogram.
type Grid struct {
	Lo, Hi float64
	Bins   int
}

// GridOf returns the grid of bins equal-width bins that covers the finite
// range of every tensor summarised in stats, and false when none of them
// holds a finite value. When every finite value is the same v, the grid is
// [v-0.5, v+0.5], as TensorBoard's histogram summary does for a constant
// tensor. For integer tensors (integer set, as for int and bool dtypes)
// whose range spans fewer than bins integers, every bin is one integer
// wide, centred on it, so that no bin straddles two values or none.
func GridOf(stats []Stats, bins int, integer bool) (Grid, bool) {
	g := Grid{Bins: max(bins, 1)}
	found := false
	for _, s := range stats {
		if !s.HasFinite() {
			continue
		}
		if !found {
			g.Lo, g.Hi, found = s.Min, s.Max, true
			continue
		}
		g.Lo, g.Hi = min(g.Lo, s.Min), max(g.Hi, s.Max)
	}
	if !found {
		return Grid{}, false
	}
	if integer && g.Hi-g.Lo < float64(g.Bins) {
		g.Bins = int(g.Hi-g.Lo) + 1
		g.Lo, g.Hi = g.Lo-0.5, g.Hi+0.5
	} else if g.Lo == g.Hi {
		g.Lo, g.Hi = g.Lo-0.5, g.Hi+0.5
	}
	return g, true
}

// Edges returns the Bins+1 bin edges, the first Lo and the last Hi.
func (g Grid) Edges() []float64 {
	e := make([]float64, g.Bins+1)
	for i := range e {
		e[i] = g.edge(i)
	}
	e[g.Bins] = g.Hi
	return e
}

// edge is the left edge of bin i: Lo + i*(w/Bins), as numpy.linspace
// computes it, so that values on an edge fall in the bin np.histogram
// puts them in.
func (g Grid) edge(i int) float64 {
	if w := g.Hi - g.Lo; !math.IsInf(w, 0) {
		return float64(i)*(w/float64(g.Bins)) + g.Lo
	}
	// A range wider than float64 holds: interpolate instead.
	t := float64(i) / float64(g.Bins)
	return g.Lo*(1-t) + g.Hi*t
}

// Counts re-bins values onto the grid: the number of finite values in each
// bin. Values outside [Lo, Hi] (there are none when the grid came from
// GridOf over these values' statistics) and NaN or infinite values are not
// counted; Stats counts those.
func (g Grid) Counts(values []float64) []int {
	c := make([]int, g.Bins)
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < g.Lo || v > g.Hi {
			continue
		}
		c[g.bin(v)]++
	}
	return c
}

// bin is the bin holding v, for Lo <= v <= Hi.
func (g Grid) bin(v float64) int {
	// Halving keeps the arithmetic finite for ranges wider than float64.
	i := int(float64(g.Bins) * (v/2 - g.Lo/2) / (g.Hi/2 - g.Lo/2))
	i = min(max(i, 0), g.Bins-1)
	// Rounding may put v one bin off near an edge: settle on the edges.
	for i > 0 && v < g.edge(i) {
		i--
	}
	for i < g.Bins-1 && v >= g.edge(i+1) {
		i++
	}
	return i
}
