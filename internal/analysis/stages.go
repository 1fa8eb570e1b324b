package analysis

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/anomaly"
	"github.com/trainreport/trainreport/internal/analysis/downsample"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// Staged is an analysis made in stages, so that a run's scalar points
// are needed only while its own stage runs (issue 28: a merge reads its
// parts a run at a time and never holds every point):
//
//   - Plan makes the report-wide decisions of the scalars (which tags are
//     drawn, how many points a series draws, a sweep's extremes and the
//     steps of its bands) from the series' shapes (Shapes), not their
//     points;
//   - Run, once per run with the run's points, derives everything that
//     reads them: each series' views (statistics, the points kept and
//     drawn), its values at its sweep's band steps, the anomaly rules on
//     its series; runs may come in any order, several at once;
//   - Compact, once the run's data files are written, keeps of its points
//     only those the outputs still read (the drawn ones of a series a
//     page draws inline, the last of the others: SetReads);
//   - Finish derives the rest: the bands' quantiles, the rules across
//     runs, every other kind.
//
// Build is Plan, Run of every run and Finish in a row: a direct build
// and a merge run the same code, which keeps their reports identical.
type Staged struct {
	rep    *model.Report
	opt    Options // as given
	sopt   Options // with the scalars' defaults
	th     anomaly.Thresholds
	sc     result.Scalars
	slots  map[*model.Scalar]*slot
	sweeps []sweepPlan // per drawn tag

	mu      sync.Mutex
	runs    map[*model.Run]anomaly.RunScalars // Run's, read by Finish
	iota    []int                             // identity's
	walkers sync.Pool                         // Run's, with their buffers (*anomaly.Walker)
}

// slot is where a series' results go.
type slot struct {
	view        *result.ScalarView
	tag, series int // its tag's index in Scalars.Tags, its index in the tag's Series
	extreme     bool
	final       float64      // its shape's final value
	reads       result.Reads // what the outputs read of it after Compact
}

// sweepPlan is a drawn tag's sweep summary as it is made.
type sweepPlan struct {
	grid      bandGrid
	low, high []int
	nonFinite int
	values    []bandValues            // per series, at grid's steps (Run)
	ends      map[int]result.SweepEnd // the extremes drawn at MaxPoints, when DrawCap is not (Run)
}

// bandValues is a series' values at its band's steps from step off on,
// as many as it reaches (a run that stopped early holds none past its
// last step, nor before its first): float32 when the series was written
// so, which holds its values exactly in half the bytes.
type bandValues struct {
	off int
	result.Values
}

// at is the value at the band's step k, NaN where the series has none.
func (b bandValues) at(k int) float64 {
	if k -= b.off; k < 0 || k >= b.Len() {
		return math.NaN()
	}
	return b.At(k)
}

// Shapes are the shapes of scalar series (plan.go), taken while their
// points are at hand, for Plan. Not safe for concurrent use.
type Shapes struct {
	in stepInterner
	m  map[*model.Scalar]seriesShape
}

// NewShapes returns an empty set of shapes.
func NewShapes() *Shapes { return &Shapes{m: map[*model.Scalar]seriesShape{}} }

// Add takes the shapes of run's scalar series, which must hold their
// points.
func (sh *Shapes) Add(run *model.Run) {
	for _, s := range run.Scalars {
		sh.m[s] = shapeOf(s, &sh.in)
	}
}

// addAll is Add of each of runs. A series' steps are most often known
// from its collection (knownSteps); those of the others are scanned on
// all cores: the scan is a pass over every point, which the direct
// build's Plan otherwise made on one core while the other waited (some
// 37 ms of CPU at 8 M points). The steps are interned afterwards, in
// report order, as Add interns them, so that the shapes do not depend on
// which core scanned what.
func (sh *Shapes) addAll(ctx context.Context, runs []*model.Run) error {
	var all []*model.Scalar
	for _, run := range runs {
		all = append(all, run.Scalars...)
	}
	scans := make([]stepScan, len(all))
	var unknown []int // of all, with points whose steps are not known
	for i, s := range all {
		if len(s.Points) == 0 {
			continue
		}
		var ok bool
		if scans[i], ok = knownSteps(s); !ok {
			unknown = append(unknown, i)
		}
	}
	err := parallelEach(ctx, len(unknown), func(k int) {
		i := unknown[k]
		scans[i] = scanSteps(all[i].Points)
	})
	if err != nil {
		return err
	}
	for i, s := range all {
		sh.m[s] = shapeScanned(s, &sh.in, scans[i])
	}
	return nil
}

// Plan starts the analysis of rep: its scalar series are those shapes
// holds, nil for the shapes of rep's own points (a direct build).
func Plan(ctx context.Context, rep *model.Report, shapes *Shapes, opt Options) (*Staged, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if shapes == nil {
		shapes = NewShapes()
		if err := shapes.addAll(ctx, rep.Runs); err != nil {
			return nil, err
		}
	}
	st := &Staged{rep: rep, opt: opt, sopt: opt.withDefaults(), th: opt.AnomalyThresholds,
		slots: map[*model.Scalar]*slot{}, runs: map[*model.Run]anomaly.RunScalars{}}
	if st.th == (anomaly.Thresholds{}) {
		st.th = anomaly.DefaultThresholds
	}
	sopt := st.sopt
	out := result.Scalars{MaxPoints: sopt.MaxPoints, MaxPagePoints: sopt.MaxPagePoints, Thin: rethin}
	at := map[string]int{} // tag -> index in out.Tags
	for _, run := range rep.Runs {
		for _, s := range run.Scalars {
			sh, ok := shapes.m[s]
			if !ok {
				return nil, fmt.Errorf("analysis: no shape of scalar %q of run %q", s.Tag, run.Name)
			}
			// A tag whose every point a SessionLog START purged has
			// nothing to draw: the outputs leave it out.
			if sh.points == 0 {
				continue
			}
			i, ok := at[s.Tag]
			if !ok {
				i = len(out.Tags)
				at[s.Tag] = i
				out.Tags = append(out.Tags, result.ScalarTag{Tag: s.Tag})
			}
			// The steps' form the shape found, for the data file to
			// write without a second pass over them.
			v := &result.ScalarView{Run: run, Scalar: s, Total: sh.points, Steps: sh.steps.progression()}
			out.Tags[i].Series = append(out.Tags[i].Series, v)
		}
	}
	// Tags are distinct: the order is total.
	slices.SortFunc(out.Tags, func(a, b result.ScalarTag) int { return cmp.Compare(a.Tag, b.Tag) })
	out.Drawn = len(out.Tags)
	if sopt.MaxCharts >= 0 {
		out.Drawn = min(out.Drawn, sopt.MaxCharts)
	}
	drawn := make([][]seriesShape, out.Drawn)
	for i, t := range out.Tags {
		for j, v := range t.Series {
			st.slots[v.Scalar] = &slot{view: v, tag: i, series: j, final: shapes.m[v.Scalar].final, reads: result.ReadsAll}
			if i < out.Drawn {
				drawn[i] = append(drawn[i], shapes.m[v.Scalar])
			}
		}
	}
	// The page's budget of points is shared by the series it draws: those
	// of the tags within its budget of charts, the first in tag order.
	out.DrawCap = drawCapOf(drawn, sopt)
	st.sweeps = make([]sweepPlan, out.Drawn)
	for i, shs := range drawn {
		sp := &st.sweeps[i]
		var seqs []*stepSeq
		finals := make([]float64, len(shs))
		for j, sh := range shs {
			if sh.steps != nil {
				seqs = append(seqs, sh.steps)
			}
			finals[j] = sh.final
			if !finite(sh.final) {
				sp.nonFinite++
			}
		}
		sp.grid = planBand(seqs, sopt.MaxPoints)
		sp.low, sp.high = sweepEnds(finals, result.SweepEnds)
		sp.values = make([]bandValues, len(shs))
		sp.ends = map[int]result.SweepEnd{}
		for _, j := range slices.Concat(sp.low, sp.high) {
			st.slots[out.Tags[i].Series[j].Scalar].extreme = true
		}
	}
	st.sc = out
	return st, nil
}

// Scalars are the scalar series as Plan laid them out: their tags, in
// order, each with its series' views (Run, Scalar and Total set; the
// rest is Run's), and the page's budgets (Drawn, DrawCap). For the
// outputs to say what they read of each (SetReads); not to be changed.
func (st *Staged) Scalars() *result.Scalars { return &st.sc }

// Final is the final value of series s (that of its last point, NaN for
// none), as its shape gave it: its statistics' Last before Run.
func (st *Staged) Final(s *model.Scalar) float64 {
	if sl := st.slots[s]; sl != nil {
		return sl.final
	}
	return math.NaN()
}

// SetReads sets what the outputs read of each series once its data
// files are written (result.Reads; every view when it is not called):
// Run derives the sparklines read only, and Compact keeps a series'
// drawn points only when read, its last point else. Call it after Plan,
// before the first Run.
func (st *Staged) SetReads(reads func(*result.ScalarView) result.Reads) {
	for _, sl := range st.slots {
		sl.reads = reads(sl.view)
	}
}

// Run derives what needs run's scalar points, which it must hold: run is
// one of the report's runs, each given once. Runs may be given in any
// order, from several goroutines at once.
//
// Each series' points are read once for what several of its results
// need (anomaly.Walker: its statistics, its finite values, the extremes
// of the buckets its drawn points are thinned from when all are finite,
// whether its steps are in order, and what the rules on its shape read),
// the series' results then derived while its values are in cache.
//
// A Walker's buffers go from one run to the next (a pool): a run's
// values, 800 KB for a series of 100,000 points, and the spike rule's
// blocks are not allocated, nor cleared, again for each.
func (st *Staged) Run(run *model.Run) {
	rs := st.begin(run)
	rs.End()
}

// RunStage is Run of one run a series at a time (Begin), so that a
// writer of the run's data files formats each series right after its
// stage: its values are then at hand, in the Walker's buffer (8 bytes a
// point, just read), rather than read again from its 24-byte points,
// which by the end of the run's stage are in no core's cache (2.4 MB a
// series of 100,000 points: a core's L2 is 2 MiB). Not safe for
// concurrent use.
type RunStage struct {
	st       *Staged
	run      *model.Run
	wk       *anomaly.Walker
	next     int            // run.Scalars[next:] are not walked yet
	begun    bool           // by Begin, which set the views' Data and Faded
	walked   anomaly.Series // the last walked
	unjudged bool           // walked is not judged yet
}

// Begin starts Run of run a series at a time: Through each of its
// views' series in Views' order (the run's), then End. The views' data
// indices (result.ScalarView.Data) and superseded points (Faded), which
// say how many points its data files hold, are set at once: ok is false,
// and nothing is started, when that needs the series' points thinned (a
// series past Options.MaxDataPoints); the caller then uses Run.
func (st *Staged) Begin(run *model.Run) (rs *RunStage, ok bool) {
	limit := st.sopt.MaxDataPoints
	for _, s := range run.Scalars {
		if limit > 0 && len(s.Points) > limit && st.slots[s] != nil {
			return nil, false
		}
	}
	rs = st.begin(run)
	rs.begun = true
	for _, s := range run.Scalars {
		if sl := st.slots[s]; sl != nil {
			sl.view.Total = len(s.Points)
			sl.view.Data = nil
			sl.view.Faded = fadedViews(s, st.sc.DrawCap, max(limit, 0))
		}
	}
	return rs, true
}

// begin starts Run of run with a Walker of the pool.
func (st *Staged) begin(run *model.Run) *RunStage {
	wk, _ := st.walkers.Get().(*anomaly.Walker)
	if wk == nil {
		wk = anomaly.NewWalker(run, st.th)
	} else {
		wk.Reset(run)
	}
	return &RunStage{st: st, run: run, wk: wk}
}

// Through derives what needs the points of the run's series up to s, in
// the run's order (its tag order, as Views'), s included, and returns
// s's values and wall times when every value is finite: the Walker's
// buffers, read only, valid until the next call, which its data files'
// writer reads in place of the points' (8 bytes a point each, in cache,
// rather than the 24-byte points again). It returns nils when s is not
// a series of the run left to walk (it was walked already: its views
// are derived), or has a value that is not finite.
func (rs *RunStage) Through(s *model.Scalar) (vals, walls []float64) {
	for rs.next < len(rs.run.Scalars) {
		c := rs.run.Scalars[rs.next]
		rs.next++
		ser := rs.walk(c, c == s)
		if c == s {
			vals, _ = ser.Values()
			if vals != nil {
				walls, _ = ser.WallTimes()
			}
			return vals, walls
		}
	}
	return nil, nil
}

// walk judges the series walked before, if not yet, then walks series
// s and derives its views; with copyWalls the walk also copies s's wall
// times (Through's, for the writer). s is judged by the next walk, or End: after
// its data column is formatted (Through's caller), whose points are then
// still partly in cache from the walk, where the rules' own buffers
// would have pushed them out. The rules read the walk's values only,
// which stay in the Walker's buffer until the next Walk.
func (rs *RunStage) walk(s *model.Scalar, copyWalls bool) anomaly.Series {
	rs.judge()
	ser := rs.st.walkSeries(rs.wk, s, copyWalls, rs.begun)
	rs.walked, rs.unjudged = ser, true
	return ser
}

// walkSeries walks s with wk (copying its wall times too with
// copyWalls) and derives its views from the walk, begun as Begin's.
func (st *Staged) walkSeries(wk *anomaly.Walker, s *model.Scalar, copyWalls, begun bool) anomaly.Series {
	var ser anomaly.Series
	if copyWalls {
		ser = wk.WalkCopyingWalls(s, st.sc.DrawCap)
	} else {
		ser = wk.Walk(s, st.sc.DrawCap)
	}
	if sl := st.slots[s]; sl != nil {
		st.views(sl, s, ser, begun)
	}
	return ser
}

// judge runs the rules on the series walked last, once.
func (rs *RunStage) judge() {
	if rs.unjudged {
		rs.wk.Judge(rs.walked)
		rs.unjudged = false
	}
}

// End derives what needs the points of the run's series not walked yet,
// and keeps what the rules found for Finish. Call it once, last.
func (rs *RunStage) End() {
	for rs.next < len(rs.run.Scalars) {
		rs.walk(rs.run.Scalars[rs.next], false)
		rs.next++
	}
	rs.judge()
	st := rs.st
	res := rs.wk.Result()
	st.walkers.Put(rs.wk)
	rs.wk = nil
	st.mu.Lock()
	st.runs[rs.run] = res
	st.mu.Unlock()
}

// SharedRun is Run of one run by several goroutines at once, a series
// each at a time, so that the series of a long run are shared by every
// core: a run is otherwise one core's work, and the last run of a stage
// left the other cores idle (a run of 1 M points is some 50 ms). Each
// goroutine walks the series it takes with a SeriesStage of its own;
// what the rules find of each series is kept by the series' place in the
// run and joined in the run's order by End, as one Walker over the run
// finds it. Begin, then RunStage.Shared, starts it.
type SharedRun struct {
	st    *Staged
	run   *model.Run
	at    map[*model.Scalar]int // a series' index in run.Scalars
	begun bool                  // by Begin, which set the views' Data and Faded

	mu     sync.Mutex
	walked []bool               // per series of run.Scalars
	found  []anomaly.RunScalars // what Judge found of each
}

// Shared makes rs, which Begin returned and nothing walked yet, Run of
// its run by several goroutines: each takes a SeriesStage (Stage), walks
// with it the series it is given, each once, then calls Done; then End,
// once every stage is done. rs is not to be used after.
func (rs *RunStage) Shared() *SharedRun {
	// Begin set the views' data indices and superseded points; its Walker
	// goes back to the pool, for a stage.
	rs.st.walkers.Put(rs.wk)
	rs.wk = nil
	sr := rs.st.shared(rs.run)
	sr.begun = true
	return sr
}

// Shared starts Run of run by several goroutines as RunStage.Shared
// does, for a run Begin refused (a series past Options.MaxDataPoints):
// each series' data indices and superseded points are derived as it is
// walked, as Run derives them, so that the run's data files are written
// (render.RunData.Write) once End returned.
func (st *Staged) Shared(run *model.Run) *SharedRun { return st.shared(run) }

// shared returns a SharedRun of run, nothing walked.
func (st *Staged) shared(run *model.Run) *SharedRun {
	n := len(run.Scalars)
	sr := &SharedRun{st: st, run: run, at: make(map[*model.Scalar]int, n), walked: make([]bool, n), found: make([]anomaly.RunScalars, n)}
	for i, s := range run.Scalars {
		sr.at[s] = i
	}
	return sr
}

// Run is the run of sr.
func (sr *SharedRun) Run() *model.Run { return sr.run }

// SeriesStage walks series of a SharedRun's run for one goroutine. Not
// safe for concurrent use.
type SeriesStage struct {
	sr       *SharedRun
	wk       *anomaly.Walker
	walked   anomaly.Series
	at       int  // walked's index in run.Scalars
	unjudged bool // walked is not judged yet
}

// Stage returns a SeriesStage of the run, with a Walker of the pool.
func (sr *SharedRun) Stage() *SeriesStage {
	wk, _ := sr.st.walkers.Get().(*anomaly.Walker)
	if wk == nil {
		wk = anomaly.NewWalker(sr.run, sr.st.th)
	}
	return &SeriesStage{sr: sr, wk: wk}
}

// Walk derives what needs the points of s, a series of the run no stage
// walked yet, as Through does, and returns its values, and its wall times
// when Begin started the run (RunStage.Shared), when every value is
// finite (nils else): the Walker's buffers, read only, valid until the
// stage's next call. s is judged by the stage's next Walk, or Done: after
// its data column is formatted, as Through's. It returns nils, and walks
// nothing, when s is not a series of the run left to walk.
func (ss *SeriesStage) Walk(s *model.Scalar) (vals, walls []float64) {
	sr := ss.sr
	i, ok := sr.at[s]
	if !ok {
		return nil, nil
	}
	sr.mu.Lock()
	taken := sr.walked[i]
	sr.walked[i] = true
	sr.mu.Unlock()
	if taken {
		return nil, nil
	}
	// Only a run Begin started is written a series at a time, from the
	// walk's copies: one it refused is written whole from its points,
	// and a copy of its wall times would double the walk's buffer.
	ss.walk(i, s, sr.begun)
	if vals, _ = ss.walked.Values(); vals != nil && sr.begun {
		walls, _ = ss.walked.WallTimes()
	}
	return vals, walls
}

// walk judges the series walked before, then walks series i of the run;
// with copyWalls the walk also copies its wall times (Walk's, for the
// writer), as RunStage.walk.
func (ss *SeriesStage) walk(i int, s *model.Scalar, copyWalls bool) {
	ss.judge()
	// Each series' findings on their own (a Walker's Result is of the
	// series judged since its Reset), for End to join in the run's order.
	ss.wk.Reset(ss.sr.run)
	ser := ss.sr.st.walkSeries(ss.wk, s, copyWalls, ss.sr.begun)
	ss.walked, ss.at, ss.unjudged = ser, i, true
}

// judge runs the rules on the series walked last, once, and keeps what
// they found at the series' place.
func (ss *SeriesStage) judge() {
	if !ss.unjudged {
		return
	}
	ss.wk.Judge(ss.walked)
	ss.unjudged = false
	res := ss.wk.Result()
	ss.sr.mu.Lock()
	ss.sr.found[ss.at] = res
	ss.sr.mu.Unlock()
}

// Done judges the series walked last and gives the stage's Walker back.
// Call it once, last.
func (ss *SeriesStage) Done() {
	ss.judge()
	ss.sr.st.walkers.Put(ss.wk)
	ss.wk = nil
}

// End derives what needs the points of the run's series no stage walked,
// then keeps what the rules found on the run's series, joined in the
// run's order, for Finish. Call it once, after every stage's Done.
func (sr *SharedRun) End() {
	var ss *SeriesStage
	for i, s := range sr.run.Scalars {
		if !sr.walked[i] {
			if ss == nil {
				ss = sr.Stage()
			}
			sr.walked[i] = true
			ss.walk(i, s, false)
		}
	}
	if ss != nil {
		ss.Done()
	}
	// As one Walker judging the run's series in order finds them: the
	// findings in that order, the last step the largest of the series'.
	var res anomaly.RunScalars
	for _, f := range sr.found {
		res.Findings = append(res.Findings, f.Findings...)
		if f.HasLast && (!res.HasLast || f.LastStep > res.LastStep) {
			res.LastStep, res.HasLast = f.LastStep, true
		}
	}
	st := sr.st
	st.mu.Lock()
	st.runs[sr.run] = res
	st.mu.Unlock()
}

// views derives the view of series s, of slot sl, from its points and
// what the Walker's pass found of them (ser); its data indices and
// superseded points too, unless Begin set them (begun).
func (st *Staged) views(sl *slot, s *model.Scalar, ser anomaly.Series, begun bool) {
	sopt, drawCap := st.sopt, st.sc.DrawCap
	// thinned is downsample.Points of s's points, from the extremes the
	// walk found or from its values when every one is finite (the same
	// indices and buckets).
	thinned := func(budget int) ([]int, []downsample.Bucket) {
		if keep, buckets, ok := ser.Thinned(budget); ok {
			return keep, buckets
		}
		if vals, ok := ser.Values(); ok {
			return downsample.Values(vals, budget)
		}
		return downsample.Points(s.Points, budget)
	}
	v := sl.view
	v.Total = len(s.Points)
	v.Stats = ser.Stats()
	if !begun {
		if limit := sopt.MaxDataPoints; limit > 0 && len(s.Points) > limit {
			v.Data, _ = thinned(limit) // keptIndices'
		}
		v.Faded = fadedViews(s, drawCap, max(sopt.MaxDataPoints, 0))
	}
	v.Draw, v.Buckets = resultBuckets(thinned(drawCap))
	v.Spark = sparks(s.Points, v.Draw, sl.reads.Spark, s.Float32)
	if sl.tag >= st.sc.Drawn {
		return
	}
	sp := &st.sweeps[sl.tag]
	sp.values[sl.series] = valuesAt(s, sp.grid, ser.StepsSorted()) // its own index: no lock
	if sl.extreme && drawCap != sopt.MaxPoints {
		draw, buckets := resultBuckets(thinned(sopt.MaxPoints))
		st.mu.Lock()
		sp.ends[sl.series] = result.SweepEnd{Series: sl.series, Draw: draw, Buckets: buckets}
		st.mu.Unlock()
	}
}

// Views returns the views of run's scalar series, in tag order: what its
// data files are written from, once Run has filled them.
func (st *Staged) Views(run *model.Run) []*result.ScalarView {
	var out []*result.ScalarView
	for _, s := range run.Scalars {
		if sl := st.slots[s]; sl != nil {
			out = append(out, sl.view)
		}
	}
	slices.SortFunc(out, func(a, b *result.ScalarView) int { return cmp.Compare(a.Scalar.Tag, b.Scalar.Tag) })
	return out
}

// Compact drops the points of run's scalar series that no output reads
// once the run's data files are written (SetReads): a series a page
// draws inline keeps its drawn points (those of its buckets' ends among
// them) and its last, and its views index those; any other keeps its
// last point only (a sweep's run table and rankings read its final
// value), and no drawn points (its Draw and Buckets are nil); a sweep's
// extremes, which a page may draw again at another budget, keep every
// point. Superseded points are kept. Call it after Run, and only once
// the run's data files are written.
func (st *Staged) Compact(run *model.Run) {
	for _, s := range run.Scalars {
		sl := st.slots[s]
		if sl == nil || sl.extreme || len(s.Points) == 0 {
			continue
		}
		v := sl.view
		n := len(s.Points)
		switch {
		case !sl.reads.Points:
			// A copy, so that the points' array is freed.
			s.Points, v.Draw, v.Buckets = []model.Point{s.Points[n-1]}, nil, nil
			continue
		case len(v.Draw) == n:
			// Every point drawn: the points stay as they are, not
			// copied; when the page's budget holds them all (no
			// buckets), their indices are 0, 1, ..., shared by every
			// such series.
			if v.Buckets == nil {
				v.Draw = st.identity(n)
			}
			continue
		}
		keep := slices.Clone(v.Draw)
		for _, b := range v.Buckets {
			keep = append(keep, b.First, b.Last)
		}
		keep = append(keep, n-1)
		slices.Sort(keep)
		keep = slices.Compact(keep)
		pts := make([]model.Point, len(keep))
		for i, k := range keep {
			pts[i] = s.Points[k]
		}
		pos := func(k int) int { i, _ := slices.BinarySearch(keep, k); return i }
		var draw []int
		if len(keep) == len(v.Draw) {
			// It keeps just its drawn points (its buckets' ends and its
			// last are among them, as downsample.Points draws them): its
			// indices are 0, 1, ..., shared by every such series.
			draw = st.identity(len(keep))
		} else {
			draw = make([]int, len(v.Draw))
			for i, k := range v.Draw {
				draw[i] = pos(k)
			}
		}
		var buckets []result.Bucket
		if v.Buckets != nil {
			buckets = make([]result.Bucket, len(v.Buckets))
			for i, b := range v.Buckets {
				b.First, b.Last = pos(b.First), pos(b.Last)
				buckets[i] = b
			}
		}
		s.Points, v.Draw, v.Buckets = pts, draw, buckets
	}
}

// identity returns the indices 0 to n-1, in a slice shared by every
// caller (read only).
func (st *Staged) identity(n int) []int {
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.iota) < n {
		st.iota = make([]int, max(n, 2*len(st.iota)))
		for i := range st.iota {
			st.iota[i] = i
		}
	}
	return st.iota[:n:n]
}

// Finish derives the rest of the analysis, once every run went through
// Run. It stops with ctx's error when ctx is done.
func (st *Staged) Finish(ctx context.Context) (*result.Analysis, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep, opt := st.rep, st.opt
	an := &result.Analysis{Undrawn: Undrawn(rep)}
	sc := st.sc
	sc.Sweep = make([]result.SweepTag, sc.Drawn)
	// The sweep tags' bands are built on all cores while this goroutine
	// derives the rest, which reads none of them: one after the other,
	// a core waited while the last tags' bands were built (fewer tags
	// than twice the cores leave one core idle at the end), then the
	// other while the rest ran on one.
	bands := make(chan bandsDone, 1)
	go func() {
		var d bandsDone
		defer func() {
			if v := recover(); v != nil { // parallelEach's, with its worker's stack
				s := fmt.Sprint(v)
				d.panicked = &s
			}
			bands <- d
		}()
		d.err = parallelEach(ctx, sc.Drawn, func(i int) { sc.Sweep[i] = st.sweepTag(ctx, i) })
	}()
	err := st.finishRest(ctx, an)
	d := <-bands
	if d.panicked != nil {
		panic(*d.panicked)
	}
	if d.err != nil {
		return nil, d.err
	}
	if err != nil {
		return nil, err
	}
	an.Scalars = sc
	// The comparison and the gates read the anomalies: they come last.
	an.Baseline = compare(rep, opt.Baseline, an.Scalars.DrawCap, statsOf(an))
	an.Gates = evalGates(rep, an, opt.Gates, opt.Baseline)
	return an, nil
}

// bandsDone is how Finish's sweep bands ended: the error of
// parallelEach, or the panic it raised again.
type bandsDone struct {
	err      error
	panicked *string
}

// finishRest derives into an what Finish derives besides the scalars:
// histograms, tensors and exceptions, the anomalies, embeddings, graphs,
// media and meshes. It reads no sweep band, so that it runs beside them.
func (st *Staged) finishRest(ctx context.Context, an *result.Analysis) error {
	rep, opt := st.rep, st.opt
	var err error
	if an.Histograms, err = histograms(ctx, rep); err != nil {
		return err
	}
	// Each tensor is decoded once, for both pages and the anomaly rules
	// on tensors.
	var decoded *anomaly.Decoded
	if an.Tensors, an.Exceptions, decoded, err = tensorsAndExceptions(ctx, rep); err != nil {
		return err
	}
	an.Anomalies = anomaly.FindStaged(ctx, rep, st.th, decoded, func(run *model.Run) anomaly.RunScalars { return st.runs[run] })
	if err := ctx.Err(); err != nil {
		return err
	}
	if an.Embeddings, err = embeddings(ctx, rep, opt); err != nil {
		return fmt.Errorf("laying out the embeddings: %w", err)
	}
	if an.Graphs, err = graphs(ctx, rep, opt); err != nil {
		return err
	}
	if an.Media, err = media(ctx, rep, opt); err != nil {
		return err
	}
	if !opt.SummaryOnly {
		if an.Meshes, err = meshes(ctx, rep, opt); err != nil {
			return err
		}
	}
	return nil
}

// sweepTag is the sweep summary of drawn tag i: its band from the values
// Run gathered, its extremes drawn at MaxPoints points.
func (st *Staged) sweepTag(ctx context.Context, i int) result.SweepTag {
	sp := &st.sweeps[i]
	series := st.sc.Tags[i].Series
	out := result.SweepTag{Band: bandFromValues(ctx, sp.values, sp.grid.steps), NonFinite: sp.nonFinite}
	end := func(j int) result.SweepEnd {
		if st.sc.DrawCap == st.sopt.MaxPoints {
			// The view's own indices, not a copy.
			return result.SweepEnd{Series: j, Draw: series[j].Draw, Buckets: series[j].Buckets}
		}
		return sp.ends[j]
	}
	for _, j := range sp.low {
		out.Low = append(out.Low, end(j))
	}
	for _, j := range sp.high {
		out.High = append(out.High, end(j))
	}
	return out
}

// valuesAt returns s's values at the steps of grid, as band reads them:
// a series' value at step t is that of its last point (in step order) at
// or before t, counted from its first step to its last (NaN outside).
// sorted is whether s's steps are in order (stepsSorted), which the
// series' walk found. It allocates once, the slice it returns (for
// sorted steps): the steps it holds are known before its values are
// gathered.
func valuesAt(s *model.Scalar, grid bandGrid, sorted bool) bandValues {
	pts := s.Points
	if len(pts) == 0 || len(grid.steps) == 0 {
		return bandValues{}
	}
	if !sorted {
		pts = slices.Clone(pts)
		slices.SortStableFunc(pts, func(a, b model.Point) int { return cmp.Compare(a.Step, b.Step) })
	}
	// Only the steps from its first to its last are held: every step of
	// grid.steps[lo:hi] is within them.
	lo, hi := 0, len(grid.steps)
	if !grid.byIndex {
		first, last := pts[0].Step, pts[len(pts)-1].Step
		lo, _ = slices.BinarySearch(grid.steps, first)
		hi, _ = slices.BinarySearch(grid.steps, last+1)
		if last == math.MaxInt64 {
			hi = len(grid.steps)
		}
	}
	if lo >= hi {
		return bandValues{}
	}
	if s.Float32 {
		// Held as float32 when every finite value is one exactly (a
		// series written as float32 is): the band reads the same values.
		f32 := make([]float32, hi-lo)
		if gatherAt(f32, pts, grid, lo) {
			return bandValues{off: lo, Values: result.Values{F32: f32}}
		}
	}
	f64 := make([]float64, hi-lo)
	gatherAt(f64, pts, grid, lo)
	return bandValues{off: lo, Values: result.Values{F64: f64}}
}

// gatherAt puts in dst the values of pts (in step order) at the steps
// grid.steps[lo:lo+len(dst)], each within pts' first and last step, as
// valuesAt reads them. It reports false, as soon as it meets one, when a
// finite value is not held exactly by T (float32).
func gatherAt[T float32 | float64](dst []T, pts []model.Point, grid bandGrid, lo int) bool {
	if grid.byIndex {
		for k, j := range grid.at[lo : lo+len(dst)] {
			v := pts[j].Value
			dst[k] = T(v)
			if float64(dst[k]) != v && finite(v) {
				return false
			}
		}
		return true
	}
	c := 0
	for k, t := range grid.steps[lo : lo+len(dst)] {
		for c+1 < len(pts) && pts[c+1].Step <= t {
			c++
		}
		v := pts[c].Value
		dst[k] = T(v)
		if float64(dst[k]) != v && finite(v) {
			return false
		}
	}
	return true
}

// bandFromValues is the band of series whose values at steps valuesAt
// gathered (a series without points has none), gathered a tile of steps
// at a time (a read per cache line of a series rather than one per
// series per step, which for thousands of series missed the cache at
// every value): each step's finite values, in series order, summarised
// by addTile.
func bandFromValues(ctx context.Context, values []bandValues, steps []int64) result.SweepBand {
	var band bandBuilder
	var series []bandValues
	for _, v := range values {
		if v.Len() > 0 {
			series = append(series, v)
		}
	}
	n := len(series)
	if n == 0 {
		return band.SweepBand
	}
	tile := max(1, min(64, bandTile/n))
	buf := make([]float64, tile*n)
	var counts [64]int
	for t0 := 0; t0 < len(steps); t0 += tile {
		if ctx.Err() != nil {
			return band.SweepBand
		}
		t1 := min(t0+tile, len(steps))
		ns := counts[:t1-t0]
		clear(ns)
		for _, sv := range series {
			// The tile's steps the series holds, read straight from its
			// slice: no bounds to test per value.
			a, b := max(t0, sv.off), min(t1, sv.off+sv.Len())
			if a >= b {
				continue
			}
			if sv.F32 != nil {
				gatherTile(buf, n, ns[a-t0:], sv.F32[a-sv.off:b-sv.off], a-t0)
			} else {
				gatherTile(buf, n, ns[a-t0:], sv.F64[a-sv.off:b-sv.off], a-t0)
			}
		}
		band.addTile(buf, n, ns, steps[t0:t1])
	}
	return band.SweepBand
}

// gatherTile adds the finite ones of vals, a series' values at the
// tile's steps from k0 on, to the steps' values in buf (step k's ns[k-k0]
// values at buf[k*n:]).
func gatherTile[T float32 | float64](buf []float64, n int, ns []int, vals []T, k0 int) {
	ns = ns[:len(vals)]
	for i, x := range vals {
		// |v| <= MaxFloat64 is false for NaN and the infinities: one
		// test, not finite's two.
		if v := float64(x); math.Abs(v) <= math.MaxFloat64 {
			buf[(k0+i)*n+ns[i]] = v
			ns[i]++
		}
	}
}

// statsOf returns the statistics of a series as an's views hold them
// (the view's, taken of every point by Run), or of its points for a
// series without a view.
func statsOf(an *result.Analysis) func(*model.Scalar) model.Stats {
	views := map[*model.Scalar]*result.ScalarView{}
	for _, t := range an.Scalars.Tags {
		for _, v := range t.Series {
			views[v.Scalar] = v
		}
	}
	return func(s *model.Scalar) model.Stats {
		if v, ok := views[s]; ok {
			return v.Stats
		}
		return s.Stats()
	}
}

// Points is how many points s had when its shape was taken.
func (sh *Shapes) Points(s *model.Scalar) int { return sh.m[s].points }
