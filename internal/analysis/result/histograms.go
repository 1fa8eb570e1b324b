package result

import "github.com/trainreport/trainreport/collect/model"

// Histograms is what the histograms and distributions pages draw of the
// histogram series besides their entries.
type Histograms struct {
	// Compressed holds, per histogram series with entries, each entry's
	// values at BasisPoints (TensorBoard's distributions), in entry
	// order: the distributions page and data files draw them.
	Compressed map[*model.Histogram][][len(BasisPoints)]float64
	// Rebin spreads an entry's buckets over n equal bins from lo to hi,
	// as TensorBoard draws histograms whose buckets differ in width, for
	// any finite lo < hi (an overflowing hi - lo included). The range is
	// that of the steps a chart draws, which the page's step budget
	// chooses: the writer calls it with them.
	Rebin func(rows []model.Bucket, lo, hi float64, n int) []float64
}

// BasisPoints are where TensorBoard's distributions cut a histogram, in
// hundredths of a percent: the normal distribution's CDF at -inf, -1.5,
// -1, -0.5, 0, 0.5, 1, 1.5 standard deviations and +inf.
var BasisPoints = [9]int{0, 668, 1587, 3085, 5000, 6915, 8413, 9332, 10000}
