package model

import "slices"

// VisdomWindow is one window of a Visdom environment (docs/FORMATS.md
// section 22), kept whole so that the Visdom page draws every window as
// Visdom did: its line traces are also the run's scalars, its images the
// run's images and its text the run's text, where Tag names them.
type VisdomWindow struct {
	// Env is the environment that holds the window, ID its id there.
	Env, ID string
	Title   string
	// Type is Visdom's window type: "plot", "image", "image_history",
	// "text", "properties", "network", "embeddings", "plot_history", or
	// one a later Visdom writes, kept as is.
	Type string
	// Tag is the tag of the run that lists the window: a scalar tag per
	// line trace is Tag + "/" + the trace's name when the window has
	// several, an image or text tag is Tag, and the rest are tags of kind
	// KindVisdom.
	Tag string
	// Traces and the axis titles of a plot window.
	Traces                  []VisdomTrace
	XLabel, YLabel, Y2Label string
	// Properties of a properties window.
	Properties []VisdomProperty
	// Images counts the images of an image window, kept as the run's
	// images under Tag.
	Images int
	// Nodes and Edges count those of a network window; NodeLabels label
	// its nodes and EdgeEnds are its edges' ends, indices into NodeLabels,
	// two an edge.
	Nodes, Edges int
	NodeLabels   []string
	EdgeEnds     []int
	Caption      string
	// SVG is the drawing of an svg window (Visdom sends it as text),
	// which the Visdom page shows as an image.
	SVG string
	// Notes say what of the window the report does not show, and why.
	Notes []string
}

// VisdomTrace is a Plotly trace of a plot window, reduced to its data.
type VisdomTrace struct {
	// Type is Plotly's ("scatter", "bar", "heatmap", "box", "surface",
	// "contour", "pie", "mesh3d", ...), Mode a scatter trace's
	// ("lines", "markers").
	Type, Name, Mode string
	// X, Y and Z are numbers, NaN where Visdom wrote null; XNames and
	// YNames replace X or Y when those are names (bar and heatmap labels).
	X, Y, Z        []float64
	XNames, YNames []string
	// Rows and Cols are the shape of a grid Z, row-major; 0 for a list.
	Rows, Cols int
	// Labels and Values are a pie's.
	Labels []string
	Values []float64
	// RightAxis is set for a trace drawn against the second y axis.
	RightAxis bool
	// ScalarTag names the run's scalar series the trace also is (whole,
	// increasing x), "" when it is none.
	ScalarTag string
}

// VisdomProperty is a row of a properties window.
type VisdomProperty struct {
	Type, Name, Value string
}

// LogFiles returns the files of the run that are its logs, for the lists
// of files that pages and the CLI show: its event files and, for a run of
// Visdom files (which collection keeps as side files, each counting its
// windows as records), those.
func (r *Run) LogFiles() []File {
	if len(r.Visdom) == 0 {
		return r.Files
	}
	return append(slices.Clone(r.Files), r.SideFiles...)
}
