// Package result holds what the analysis stage (package analysis) derives
// from a report model: everything an output shows that is not in the model
// itself. It is a leaf beside package model, so that package render reads
// the results without knowing how they were computed, and without the
// algorithms in its imports.
package result

// Analysis is every derived result of one report, computed once by
// analysis.Build and read by the outputs.
type Analysis struct {
	// Scalars are the scalar series' drawn and kept views and the sweep
	// page's bands.
	Scalars Scalars
	// Histograms are the histogram series' distributions and re-binning.
	Histograms Histograms
}
