package analysis

// The band over every point of the series, as the build made it before
// the report's stages (issue 28): the reference the staged band
// (valuesAt, bandFromValues) is checked against, from the same plan of
// steps (planBand), by TestStagedBandIsTheBand and the band tests, and
// what BenchmarkBand measures.

import (
	"context"
	"math"
	"slices"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// band summarises series at every step any of them has: a series' value
// at step s is that of its last point at or before s, counted from its
// first step to its last (a run that stopped early does not stand for the
// steps it never reached); non-finite values are left out. When the steps
// number more than maxSteps, maxSteps of them evenly spread (first and
// last included) are summarised. It stops early, with what it has, when
// ctx is done (the analysis then fails with ctx's error).
func band(ctx context.Context, series []*result.ScalarView, maxSteps int) result.SweepBand {
	var in stepInterner
	shapes := make([]seriesShape, len(series))
	for i, sv := range series {
		shapes[i] = shapeOf(sv.Scalar, &in)
	}
	return bandOf(ctx, series, shapes, maxSteps)
}

// bandOf is band with the series' shapes (shapeOf) given: the grid of
// steps is planned from them (planBand), then each series' values are
// gathered at its steps.
func bandOf(ctx context.Context, series []*result.ScalarView, shapes []seriesShape, maxSteps int) result.SweepBand {
	var seqs []*stepSeq
	for _, sh := range shapes {
		if sh.steps != nil {
			seqs = append(seqs, sh.steps)
		}
	}
	g := planBand(seqs, maxSteps)
	if len(seqs) == 0 {
		return result.SweepBand{}
	}
	byStep := func(a, b model.Point) int {
		switch {
		case a.Step < b.Step:
			return -1
		case a.Step > b.Step:
			return 1
		}
		return 0
	}
	cur := make([]bandCursor, 0, len(seqs))
	for _, sv := range series {
		pts := sv.Scalar.Points
		if len(pts) == 0 {
			continue
		}
		if !stepsSorted(pts) {
			pts = slices.Clone(pts)
			slices.SortStableFunc(pts, byStep)
		}
		cur = append(cur, bandCursor{pts: pts})
	}
	if g.byIndex {
		// Every series has these steps, each once: step k is index
		// at[k] of every series.
		pts := make([][]model.Point, len(cur))
		for i, c := range cur {
			pts[i] = c.pts
		}
		return bandByIndex(ctx, pts, g.steps, g.at)
	}
	return bandByCursor(ctx, cur, g.steps)
}

// bandCursor walks one series of a band by step: pts in step order, k
// the index of its last point at or before the step gathered last.
type bandCursor struct {
	pts []model.Point
	k   int
}

// bandAhead is how many series ahead bandByIndex reads a tile's first
// point: BenchmarkBand's CPU time was 9% lower at 4 than with none; 8
// and three points a tile did no better.
const bandAhead = 4

// bandTouched sums the steps bandByIndex reads ahead, so that the
// compiler keeps those reads: their value means nothing.
var bandTouched int64

// bandByIndex is band over series whose steps begin the same grid, each
// step once: step k is index at[k] (ascending) of every series that
// reaches it; a series that stopped before it (the index is past its
// end) does not count there. The values are gathered
// for a tile of consecutive steps at a time, a series after another, each
// series read forward over the tile: a read per cache line of a series
// rather than one per series per step, which for thousands of series
// missed the cache at every value. Each step's values are in series
// order, as band's cursors gather them.
func bandByIndex(ctx context.Context, series [][]model.Point, steps []int64, at []int) result.SweepBand {
	var band bandBuilder
	n := len(series)
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
		for i, pts := range series {
			// Read ahead: the first point of this tile in a series a few
			// on, so that its cache miss overlaps this series' reads
			// rather than starting when they end (Go has no prefetch
			// instruction; a load whose value is kept does as well).
			if i+bandAhead < n {
				if next := series[i+bandAhead]; at[t0] < len(next) {
					bandTouched += next[at[t0]].Step
				}
			}
			for k, j := range at[t0:t1] {
				if j >= len(pts) {
					break // stopped before: so for the rest of the tile
				}
				// Written always, counted when finite (v-v is 0 for
				// finite v only): no branch on the value.
				v := pts[j].Value
				buf[k*n+ns[k]] = v
				ns[k] += b2i(v-v == 0)
			}
		}
		band.addTile(buf, n, ns, steps[t0:t1])
	}
	return band.SweepBand
}

// bandByCursor is band over series on any steps, each series counted
// from its first step to its last: gathered a tile of steps at a time as
// bandByIndex does, each series' cursor read forward over the tile,
// rather than every series' at each step, which for thousands of series
// missed the cache at every value.
func bandByCursor(ctx context.Context, cur []bandCursor, steps []int64) result.SweepBand {
	var band bandBuilder
	n := len(cur)
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
		for i := range cur {
			c := &cur[i]
			first, last := c.pts[0].Step, c.pts[len(c.pts)-1].Step
			for k, s := range steps[t0:t1] {
				if s < first || s > last {
					continue
				}
				for c.k+1 < len(c.pts) && c.pts[c.k+1].Step <= s {
					c.k++
				}
				if v := c.pts[c.k].Value; !math.IsNaN(v) && !math.IsInf(v, 0) {
					buf[k*n+ns[k]] = v
					ns[k]++
				}
			}
		}
		band.addTile(buf, n, ns, steps[t0:t1])
	}
	return band.SweepBand
}
