package result

import "github.com/trainreport/trainreport/collect/model"

// Tensors is what the Tensors page and its data files show of the
// report's numeric tensor series (those with entries): each series'
// statistics per step, the steps the page charts with their counts on a
// shared grid, and the values of the steps the page and the data files
// hold.
type Tensors struct {
	// Series holds the result of each series of a run's Tensors with
	// entries.
	Series map[*model.Tensor]*TensorSeries
	// PageSteps and PageValues are the page's budgets of charted steps and
	// of inlined values per series; DataValues that of a data file.
	PageSteps, PageValues, DataValues int
}

// TensorStats summarises the values of one tensor.
type TensorStats struct {
	Count  int // every element
	Finite int // elements that are neither NaN nor infinite
	NaN    int
	PosInf int
	NegInf int
	Zero   int // elements equal to 0 (-0 included)
	// Min, Max and Mean are over the finite elements; NaN when there are
	// none.
	Min, Max, Mean float64
}

// HasFinite reports whether the tensor holds a finite value, so that Min,
// Max and Mean are numbers.
func (s TensorStats) HasFinite() bool { return s.Finite > 0 }

// TensorSeries is one (run, tag) numeric tensor series.
type TensorSeries struct {
	// Stats are the statistics of each entry; Errs the entries that could
	// not be read (their Stats are zero).
	Stats []TensorStats
	Errs  map[int]error
	// F32 is set when every step's values print as float32 (float32,
	// float16, bfloat16); Float when some step has a floating-point dtype.
	F32, Float bool
	// Charted are the entries the page charts: readable, spread evenly
	// over the series (PageSteps at most).
	Charted []int
	// Edges are the shared grid's bin edges over the charted steps'
	// finite range, empty when none holds a finite value; Hist then holds
	// a row of counts per charted step.
	Edges []float64
	Hist  [][]int
	// PageValues are the charted entries whose values the page holds,
	// DataValues the entries whose values the data file holds; Values
	// holds the values of both, by entry, or Values32 when F32 is set:
	// float32 holds those exactly in half the memory, and the analysis
	// keeps them for the outputs (up to PageValues + DataValues values a
	// series). ValuesOf reads either.
	PageValues, DataValues []int
	Values                 map[int][]float64
	Values32               map[int][]float32
	// Reread are the entries the views needed the values of that could
	// not be decoded a second time (see analysis: a series too large to
	// keep decodes them twice).
	Reread map[int]error
}

// ValuesOf returns the values of entry i kept for the outputs, nil when
// none are.
func (s *TensorSeries) ValuesOf(i int) []float64 {
	if v, ok := s.Values[i]; ok {
		return v
	}
	v32, ok := s.Values32[i]
	if !ok {
		return nil
	}
	v := make([]float64, len(v32))
	for k, x := range v32 {
		v[k] = float64(x)
	}
	return v
}

// Exceptions is what the Exceptions page and its data files show: per
// exception series (OneFlow, TS-VIS) and numeric tensor series of more
// than one value, a box per step and details (heat map, histogram,
// outliers) of a few steps.
type Exceptions struct {
	// Series holds the exception series with entries; Tensors the tensor
	// series the page draws.
	Series  map[*model.Exception]*ExceptionSeries
	Tensors map[*model.Tensor]*ExceptionSeries
	// DetailSteps bounds the detail steps per series, HeatSide a heat
	// map's cells each way, Outliers the outliers listed per step, found
	// with whisker factor OutlierK; K is the whisker factor of Boxes.
	DetailSteps, HeatSide, Outliers int
	OutlierK, K                     float64
}

// ExceptionSeries is what the Exceptions page draws of one series.
type ExceptionSeries struct {
	// Percentiles are each step's P0, P5, P10, P25, P50, P75, P90, P95
	// and P100 over its finite values, OK whether it has one; Boxes the
	// box at whisker factor K; NonFinite counts its NaN and infinities;
	// Errs are the steps that could not be read.
	Percentiles [][9]float64
	OK          []bool
	Boxes       []Box
	NonFinite   []int
	Errs        map[int]error
	// Details are the steps with a heat map, histogram and outliers.
	Details []ExceptionDetail
}

// Box is a box plot's five numbers, in ECharts' boxplot order.
type Box struct {
	Down, Q1, Median, Q3, Up float64
}

// ExceptionDetail is what the page draws of one step beyond its box.
type ExceptionDetail struct {
	Index    int // into the series' steps
	Shape    []int64
	Outliers Outliers
	Heat     Heatmap
	Hist     Histogram
	HasHist  bool
	Stats    [3]float64 // min, max, mean of the finite values
}

// Outliers are the values beyond the whiskers at OutlierK and every NaN
// and infinity, at most Outliers of them, in index order; Total counts
// them all.
type Outliers struct {
	Values  []float64
	Indices []int
	Total   int
}

// Heatmap is a tensor flattened to 2-D and shrunk to at most HeatSide
// cells each way: Rows x Cols before shrinking, CellRows x CellCols cells
// row-major, each the mean of a block of BlockRows x BlockCols; Pad marks
// the cells of a tiled layout's padding.
type Heatmap struct {
	Rows, Cols           int
	BlockRows, BlockCols int
	CellRows, CellCols   int
	Cells                []float64
	Pad                  []bool
}

// Histogram is numpy's 100-bin histogram of a tensor's finite values.
type Histogram struct {
	Min, Max float64
	Edges    []float64
	Counts   []int
}

// IsFloat32 reports whether values of dtype (numpy's name) are at most
// single precision, so that they print in float32's shortest form.
func IsFloat32(dtype string) bool {
	return dtype == "float32" || dtype == "float16" || dtype == "bfloat16"
}
