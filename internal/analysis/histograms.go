package analysis

import (
	"context"
	"math"

	"github.com/trainreport/trainreport/collect/histogram"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// histograms compresses every entry of every histogram series to its
// values at the basis points, once, on all cores: the distributions page
// and its data files both draw them.
func histograms(ctx context.Context, rep *model.Report) (result.Histograms, error) {
	out := result.Histograms{Compressed: map[*model.Histogram][][len(result.BasisPoints)]float64{}, Rebin: rebinSafe}
	var all []*model.Histogram
	for _, run := range rep.Runs {
		for _, h := range run.Histograms {
			if len(h.Entries) > 0 {
				all = append(all, h)
			}
		}
	}
	comp := make([][][len(result.BasisPoints)]float64, len(all))
	err := parallelEach(ctx, len(all), func(i int) {
		c := make([][len(result.BasisPoints)]float64, len(all[i].Entries))
		for j, e := range all[i].Entries {
			c[j] = histogram.Compress(e.Buckets)
		}
		comp[i] = c
	})
	if err != nil {
		return result.Histograms{}, err
	}
	for i, h := range all {
		out.Compressed[h] = comp[i]
	}
	return out, nil
}

// rebinSafe is histogram.Rebin over a range wider than float64 holds
// (edges of -1e308 and 1e308) too: there hi - lo and the widths of the
// buckets overflow to +Inf, so it re-bins the rows with every edge halved,
// which leaves each bin's share of each bucket, and so the counts, as
// they are.
func rebinSafe(rows []model.Bucket, lo, hi float64, n int) []float64 {
	if !math.IsInf(hi-lo, 0) {
		return histogram.Rebin(rows, lo, hi, n)
	}
	half := make([]model.Bucket, len(rows))
	for i, r := range rows {
		half[i] = model.Bucket{Left: r.Left / 2, Right: r.Right / 2, Count: r.Count}
	}
	return histogram.Rebin(half, lo/2, hi/2, n)
}
