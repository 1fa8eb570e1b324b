// Package result holds what the analysis stage (package analysis) derives
// from a report model: everything an output shows that is not in the model
// itself. It is a leaf beside package model, so that package render reads
// the results without knowing how they were computed, and without the
// algorithms in its imports.
package result

// Analysis is every derived result of one report, computed once by
// analysis.Build and read by the outputs.
type Analysis struct {
	// Embeddings are the embeddings laid out.
	Embeddings Embeddings
	// Tensors and Exceptions are the views of the Tensors and Exceptions
	// pages (result/tensors.go).
	Tensors    *Tensors
	Exceptions *Exceptions
	// Graphs are the runs' model graphs, counted and laid out.
	Graphs Graphs
	// Anomalies are what the anomaly rules found, sorted by run, kind,
	// tag and rule (anomalies.go).
	Anomalies []Anomaly
	// Baseline is the comparison with --baseline, nil without one.
	Baseline *Baseline
	// Gates are the verdicts of the --fail-on conditions, failed first.
	Gates []Gate
	// Undrawn is what each run holds that no page draws (undrawn.go).
	Undrawn []UndrawnRun
	// Scalars are the scalar series' drawn and kept views and the sweep
	// page's bands.
	Scalars Scalars
	// Histograms are the histogram series' distributions and re-binning.
	Histograms Histograms
	// Media are the kept steps of the image and audio series and the
	// previews of the kept clips (media.go).
	Media Media
	// Meshes are the runs' meshes, their kept steps decoded (meshes.go).
	Meshes Meshes
}
