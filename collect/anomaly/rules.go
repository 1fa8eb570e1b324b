package anomaly

// Thresholds are the parameters of every rule, in one table
// (DefaultThresholds); docs/ANOMALIES.md explains each.
type Thresholds struct {
	// SpikeWindow is the number of points before a scalar point whose
	// median and median absolute deviation (MAD) it is compared with.
	SpikeWindow int
	// SpikeMADs is how many MADs (scaled by 1.4826, a standard deviation
	// for normal noise) a point must be away from that median to be a
	// spike.
	SpikeMADs float64
	// SpikeMinRel is how far, relative to the median's magnitude, a spike
	// must be at least: a flat series has a MAD of zero, and round-off
	// must not count.
	SpikeMinRel float64
	// DivergeFactor: a loss diverged when its last value is above its
	// minimum by more than DivergeFactor times its range up to that
	// minimum (first value minus minimum)...
	DivergeFactor float64
	// MinPoints is the fewest points a scalar series needs for the rules
	// that look at its shape (spikes, divergence, plateau).
	MinPoints int
	// PlateauFraction: a loss plateaued when its last PlateauFraction of
	// points move it by less than PlateauRel of its range.
	PlateauFraction, PlateauRel float64
	// ScaleFactor: a tensor's scale (the largest magnitude of its finite
	// values) exploded when it grew by more than ScaleFactor from the first
	// step to the last, vanished when it shrank by more.
	ScaleFactor float64
	// EarlyFraction: a run stopped early when its last step is below
	// EarlyFraction of the median last step of its siblings (the runs of
	// its log directory), with at least EarlySiblings siblings.
	EarlyFraction float64
	EarlySiblings int
}

// DefaultThresholds are the thresholds the report uses.
var DefaultThresholds = Thresholds{
	SpikeWindow:     20,
	SpikeMADs:       10,
	SpikeMinRel:     0.5,
	DivergeFactor:   0.5,
	MinPoints:       20,
	PlateauFraction: 0.5,
	PlateauRel:      0.001,
	ScaleFactor:     1e3,
	EarlyFraction:   0.5,
	EarlySiblings:   2,
}

// Rules lists every rule, in the order docs/ANOMALIES.md explains them.
var Rules = []Rule{}
