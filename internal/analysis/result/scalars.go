package result

import "github.com/trainreport/trainreport/collect/model"

// Scalars is what the outputs draw and keep of the scalar series: per
// series its statistics and the indices of the points its chart draws and
// its data file keeps. Views are indices into the model's points, which
// the writers read beside the analysis: no point is copied.
type Scalars struct {
	// Tags are the scalar tags with points, in tag order, each with its
	// series in report order.
	Tags []ScalarTag
	// Drawn is how many tags, the first of Tags, the scalars page draws
	// a chart for (analysis.Options.MaxCharts); the others are listed.
	Drawn int
	// DrawCap is how many points a series draws at most: MaxPoints,
	// unless drawing that many would put more than MaxPagePoints on the
	// page.
	DrawCap int
	// MaxPoints and MaxPagePoints are the budgets DrawCap came from
	// (analysis.Options, defaults filled in; MaxPagePoints negative for
	// no bound), for the page to say when the second lowered the first.
	MaxPoints, MaxPagePoints int
	// Sweep holds the sweep page's summary of each drawn tag (Tags[i]'s
	// is Sweep[i]), which the page draws instead of every run's line when
	// there are too many runs or points.
	Sweep []SweepTag
	// Thin is the analysis's downsampling of pts at budget (keeping each
	// bucket's first, last and extreme points), from keep and buckets,
	// what it kept of pts at another budget (a view's Draw and Buckets),
	// which spares reading most points again. It is for the one view
	// whose budget depends on the bytes a writer has written: the sweep
	// page draws its extreme runs with fewer points when its charts would
	// pass the page's size. Every other view is computed in advance.
	Thin func(pts []model.Point, budget int, keep []int, buckets []Bucket) ([]int, []Bucket)
}

// ScalarTag is one scalar tag across the runs that have it.
type ScalarTag struct {
	Tag    string
	Series []*ScalarView // in report order
}

// ScalarView is one (run, tag) scalar series as the outputs show it.
type ScalarView struct {
	Run    *model.Run
	Scalar *model.Scalar
	Stats  model.Stats
	// Total is how many points the series has: Scalar.Points may hold
	// only those its views read, once its data files are written
	// (analysis.Staged.Compact), which Draw and Buckets then index.
	Total int
	// Data are the indices of the points the series' data file keeps
	// (downsampled past analysis.Options.MaxDataPoints), nil for all.
	Data []int
	// Steps is what the analysis found of the steps of the series'
	// points, in their order, when they are an arithmetic progression
	// (the zero value when they are not, or it did not look): a data
	// file keeping every point writes them as one without reading them
	// again.
	Steps StepProgression
	// Draw are the indices of the points its chart draws (at most about
	// DrawCap), Buckets the buckets they stand for (nil when every point
	// is drawn).
	Draw    []int
	Buckets []Bucket
	// Faded are the series' superseded points, per attempt, drawn faded
	// behind its line.
	Faded []FadedView
	// Spark holds, per budget of SparkBudgets, the values of the drawn
	// points a sparkline of about that many points shows, in the line's
	// order: what a sparkline reads, without the points (a sweep's
	// overview draws one for every run, and its charts draw few runs).
	// A budget no output reads (Reads) is not held: its Values are nil.
	Spark [len(SparkBudgets)]Values
}

// StepProgression is a series' steps as an arithmetic progression: the
// step of its i-th point (in the order of model.Scalar.Points) is First
// + i*Stride, for its Count points, Stride >= 0 and no term past int64.
// Count 0 says nothing. It describes the points it was found of: once
// they change (analysis.Staged.Compact), Count no longer matches them,
// and a reader checks it, and the ends, against the points at hand.
type StepProgression struct {
	First, Stride int64
	Count         int
}

// Values are a series' values, held as float32 when every one is a
// float32 exactly (a series written so is), in half the bytes.
type Values struct {
	F64 []float64
	F32 []float32
}

// ValuesOf returns vs, as float32 when f32 is set and every value is one
// exactly.
func ValuesOf(vs []float64, f32 bool) Values {
	if !f32 {
		return Values{F64: vs}
	}
	out := make([]float32, len(vs))
	for i, v := range vs {
		out[i] = float32(v)
		// NaN is NaN as float32, and infinities are infinities.
		if float64(out[i]) != v && v == v {
			return Values{F64: vs}
		}
	}
	return Values{F32: out}
}

// Held reports whether v holds values (a budget no output reads holds
// none: see Reads).
func (v Values) Held() bool { return v.F64 != nil || v.F32 != nil }

// Len is how many values v holds.
func (v Values) Len() int { return max(len(v.F64), len(v.F32)) }

// At is the i-th value.
func (v Values) At(i int) float64 {
	if v.F32 != nil {
		return float64(v.F32[i])
	}
	return v.F64[i]
}

// Reads is what the outputs read of a scalar series once its data files
// are written, which is all analysis.Staged.Compact keeps of it: the
// outputs decide it (render's ScalarReads) from the report's shape,
// before any run's points are read, so that a series no page draws
// inline keeps no point but its last.
type Reads struct {
	// Points is set when a chart draws the series inline (Draw,
	// Buckets and the points they index are read).
	Points bool
	// Spark is set, per budget of SparkBudgets, when a sparkline of that
	// budget is drawn of the series.
	Spark [len(SparkBudgets)]bool
}

// ReadsAll is every view of a series read: what the analysis keeps when
// no Reads are given.
var ReadsAll = Reads{Points: true, Spark: [len(SparkBudgets)]bool{true, true, true}}

// SparkBudgets are the sizes of the sparklines the outputs draw of a
// series: the overview's table (80), a sweep's overview (40) and
// summary.md's Unicode line (24).
var SparkBudgets = [...]int{80, 40, 24}

// Bucket is a run of consecutive points of a series, from index First to
// index Last inclusive, and the range of their finite values; HasFinite
// is false when the bucket holds none. A drawn point stands for its
// bucket.
type Bucket struct {
	First, Last int
	Min, Max    float64
	HasFinite   bool
}

// FadedView is the superseded points of one attempt of a series
// (model.Superseded).
type FadedView struct {
	Superseded *model.Superseded
	Draw       []int // indices of the points drawn
	Data       []int // indices of the points in the data file, nil for all
}
