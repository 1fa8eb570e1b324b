package anomaly

import (
	"encoding/binary"
	"math"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/internal/analysis/downsample"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// refMedian sorts vs and returns its median, straight from the definition.
func refMedian(vs []float64) float64 {
	slices.Sort(vs)
	n := len(vs)
	if n%2 == 1 {
		return vs[n/2]
	}
	return (vs[n/2-1] + vs[n/2]) / 2
}

// refMedianMAD is the median of win and the median of the absolute
// deviations from it, each by a sort of a copy.
func refMedianMAD(win []float64) (float64, float64) {
	med := refMedian(slices.Clone(win))
	dev := make([]float64, len(win))
	for i, v := range win {
		dev[i] = math.Abs(v - med)
	}
	return med, refMedian(dev)
}

// spikesReference is the spike rule as docs/ANOMALIES.md states it, with
// two sorts per window per point: what scalarSpikes must find.
func spikesReference(s *scalarSeries, th Thresholds) *result.Anomaly {
	vals := s.vals
	w := th.SpikeWindow
	if w < 3 || len(vals) < 2*w+1 {
		return nil
	}
	outside := func(x float64, win []float64) bool {
		med, mad := refMedianMAD(win)
		d := math.Abs(x - med)
		if d == 0 || d <= th.SpikeMinRel*math.Abs(med) {
			return false
		}
		return d > th.SpikeMADs*1.4826*mad
	}
	var first, n int
	for i := w; i+w < len(vals); i++ {
		if outside(vals[i], vals[i-w:i]) && outside(vals[i], vals[i+1:i+w+1]) {
			if n == 0 {
				first = i
			}
			n++
		}
	}
	return spikeFinding(s, first, n)
}

// hostileSeries are series that stress the order statistics: noise,
// ties, constant stretches, steps, non-finite points, huge values (whose
// middle two overflow), signed zeros, and series shorter than the windows.
func hostileSeries(rng *rand.Rand) map[string][]float64 {
	gen := func(n int, f func(i int) float64) []float64 {
		vs := make([]float64, n)
		for i := range vs {
			vs[i] = f(i)
		}
		return vs
	}
	spiky := func(v float64) float64 {
		if rng.IntN(40) == 0 {
			return v + 100*rng.NormFloat64()
		}
		return v
	}
	return map[string][]float64{
		"noise":    gen(3000, func(int) float64 { return rng.NormFloat64() }),
		"centred":  gen(3000, func(int) float64 { return spiky(0.01 * rng.NormFloat64()) }),
		"loss":     gen(3000, func(i int) float64 { return spiky(2*math.Exp(-float64(i)/500) + 0.05*rng.NormFloat64()) }),
		"ties":     gen(2000, func(int) float64 { return spiky(float64(rng.IntN(3))) }),
		"constant": gen(2000, func(i int) float64 { return spiky(float64(i / 150)) }),
		"steps":    gen(1000, func(i int) float64 { return math.Pow(0.1, float64(i/200)) }),
		"nonfinite": gen(2000, func(int) float64 {
			switch rng.IntN(10) {
			case 0:
				return math.NaN()
			case 1:
				return math.Inf(1 - 2*rng.IntN(2))
			}
			return spiky(rng.NormFloat64())
		}),
		"huge":   gen(1000, func(int) float64 { return float64(1-2*rng.IntN(2)) * math.MaxFloat64 * (0.5 + rng.Float64()/2) }),
		"zeros":  gen(1000, func(int) float64 { return spiky([]float64{0, math.Copysign(0, -1), 1e-300, -1e-300}[rng.IntN(4)]) }),
		"spread": gen(2000, func(int) float64 { return math.Ldexp(rng.Float64(), rng.IntN(200)-100) * float64(1-2*rng.IntN(2)) }),
		"short":  gen(30, func(int) float64 { return rng.NormFloat64() }),
		// Values read from float32, whose blocks sort and merge as keys
		// (sortBlockKeyed, chunks.mergeKeys): noise as large as the
		// level, spikes, and zeros of both signs among ties.
		"noise32": gen(3000, func(i int) float64 {
			return float64(float32(spiky(math.Exp(-float64(i)/600) + 0.05*rng.NormFloat64())))
		}),
		"zeros32": gen(2000, func(int) float64 {
			return float64(float32(spiky([]float64{0, math.Copysign(0, -1), 0.25, -0.25, 1e-30}[rng.IntN(5)])))
		}),
		// Stretches of float32 values among float64 ones, so that a chunk
		// merges a keyed block with one that is not: the keyed block's
		// offsets then come from its keys (blocks.block).
		"mixed32": func() []float64 {
			vs := make([]float64, 0, 3000)
			for len(vs) < 3000 {
				narrow := rng.IntN(2) == 0
				for range 10 + rng.IntN(40) {
					v := spiky(0.1 + 0.05*rng.NormFloat64())
					if narrow {
						v = float64(float32(v))
					}
					vs = append(vs, v)
				}
			}
			return vs
		}(),
		"empty":  nil,
		"single": {1},
		// Points a few ulps either side of SpikeMinRel (0.5) of the
		// median's magnitude, among windows of near-constant values:
		// where the prefilter's margin must not clear a far point.
		"relEdge": gen(3000, func(i int) float64 {
			if i%25 == 12 {
				base := []float64{1.5, 0.5, -1.5, -0.5}[rng.IntN(4)]
				return math.Float64frombits(uint64(int64(math.Float64bits(base)) + int64(rng.IntN(7)-3)))
			}
			return math.Copysign(1, float64(i%1000-500)) * (1 + float64(rng.IntN(2))*1e-15)
		}),
		"oneSpike": gen(41, func(i int) float64 {
			if i == 20 {
				return 1000
			}
			return 1
		}),
	}
}

func seriesOf(vs []float64) *scalarSeries {
	pts := points(vs...)
	return finiteValues("loss", pts, nil, 0)
}

// bucketedOf is seriesOf with the extremes of buckets of about size
// values each (as a series walked for its drawn points has them), which
// the spike rule's coarse stage reads.
func bucketedOf(vs []float64, size int) *scalarSeries {
	return finiteValues("loss", points(vs...), nil, downsample.Buckets(len(vs), 4*len(vs)/max(size, 1)))
}

// TestSpikesMatchReference compares the spike rule with the rule as
// documented, computed with sorts, on hostile series, windows of one and
// several words of bits (and longer than the series), and thresholds at
// and away from their edges: the same finding, count and first step.
func TestSpikesMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	thresholds := []Thresholds{DefaultThresholds}
	for _, f := range []func(*Thresholds){
		func(th *Thresholds) { th.SpikeMinRel = 0 },
		func(th *Thresholds) { th.SpikeMADs = 0 },
		func(th *Thresholds) { th.SpikeMADs, th.SpikeMinRel = 1, 0.01 },
	} {
		th := DefaultThresholds
		f(&th)
		thresholds = append(thresholds, th)
	}
	fired := 0
	for name, vs := range hostileSeries(rng) {
		s := seriesOf(vs)
		for _, w := range []int{2, 3, 4, 5, 7, 20, 31, 32, 33, 64, 65, 100, 2000} {
			// With buckets too, as a walk for drawn points finds them:
			// twice as long as the window (the coarse stage's least), and
			// longer.
			bucketed := []*scalarSeries{bucketedOf(vs, 2*w), bucketedOf(vs, 3*w+1)}
			for ti, th := range thresholds {
				th.SpikeWindow = w
				got, want := scalarSpikes(s, th), spikesReference(s, th)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s, window %d, thresholds %d: got %+v, want %+v", name, w, ti, got, want)
				}
				for _, b := range bucketed {
					if got := scalarSpikes(b, th); !reflect.DeepEqual(got, want) {
						t.Errorf("%s, window %d, thresholds %d, %d buckets: got %+v, want %+v", name, w, ti, len(b.mins), got, want)
					}
				}
				if want != nil {
					fired++
				}
			}
		}
	}
	if fired < 50 {
		t.Errorf("only %d cases fired: the comparison proves little", fired)
	}
}

// TestSpikesBesideZerosOfBothSigns checks the spike rule where a chunk
// merged by value puts a 0 before a -0 (values not read from float32, so
// not merged as keys): the difference of those two is -0, which must
// count as a span of 0 (no bound on the MAD), not be passed over. Here a
// point of -1 lies between two windows whose MAD is 0 ([0 0 5] and
// [0 9.1 -0]): a spike by both, which a span of 1 from the chunk
// [-1 0 -0 2.1 3.1 9.1] would have cleared.
func TestSpikesBesideZerosOfBothSigns(t *testing.T) {
	z := math.Copysign(0, -1)
	vals := []float64{10, 11, 12, 0, 0, 5, -1, 0, 9.1, z, 2.1, 3.1, 30, 31, 32, 33, 34, 35}
	th := DefaultThresholds
	th.SpikeWindow = 3
	s := seriesOf(vals)
	got, want := scalarSpikes(s, th), spikesReference(s, th)
	if want == nil || want.Step != 6 {
		t.Fatalf("the reference finds %+v, want a spike at step 6", want)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// TestWindowOrderStatistics slides a window over hostile series, forward
// by one and by jumps, and checks every order statistic, the median and
// the MAD against sorts of the window's values.
func TestWindowOrderStatistics(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for name, vs := range hostileSeries(rng) {
		vals := finiteValues("", points(vs...), nil, 0).vals
		for _, w := range []int{3, 4, 20, 32, 33, 70} {
			if len(vals) < w {
				continue
			}
			win := newWindow(newChunks(newBlocks(vals, w)))
			for j := 0; j+w <= len(vals); j += 1 + rng.IntN(3)*rng.IntN(w) {
				win.moveTo(j)
				sorted := slices.Clone(vals[j : j+w])
				slices.Sort(sorted)
				for k, v := range sorted {
					if got := win.at(k); got != v {
						t.Fatalf("%s, window %d at %d: rank %d = %v, want %v", name, w, j, k, got, v)
					}
				}
				med, mad := refMedianMAD(vals[j : j+w])
				if got := win.median(); got != med && !(math.IsNaN(got) && math.IsNaN(med)) {
					t.Fatalf("%s, window %d at %d: median %v, want %v", name, w, j, med, got)
				}
				// Deviations of a median that overflowed are not comparable.
				if !math.IsInf(med, 0) {
					if got := win.mad(med); got != mad {
						t.Fatalf("%s, window %d at %d: MAD %v, want %v", name, w, j, got, mad)
					}
				}
			}
		}
	}
}

// TestSpikesAllocateNoMorePerPoint checks that the spike rule's
// allocations do not grow with the series: a few slices per series, none
// per point.
func TestSpikesAllocateNoMorePerPoint(t *testing.T) {
	short, long := spikeSeries(2_000, true), spikeSeries(100_000, true)
	allocs := func(s *scalarSeries) float64 {
		return testing.AllocsPerRun(3, func() { scalarSpikes(s, DefaultThresholds) })
	}
	if a, b := allocs(short), allocs(long); b > a {
		t.Errorf("%v allocations for 2,000 points, %v for 100,000", a, b)
	}
}

// FuzzSpikesMatchReference compares the spike rule with the reference on
// any values, windows of 3 to 66 values and a minimum relative distance of
// 0 or the default (0 lets a MAD decide at nearly every point). With bit
// 64 of w set the values are read as float32 (4 bytes each), whose
// blocks of up to 24 sort and merge as keys.
func FuzzSpikesMatchReference(f *testing.F) {
	f.Add(uint8(0), []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add(uint8(17), make([]byte, 8*100))
	f.Add(uint8(64+17), make([]byte, 4*100))
	f.Fuzz(func(t *testing.T, w uint8, raw []byte) {
		var vals []float64
		if w&64 != 0 {
			vals = make([]float64, len(raw)/4)
			for i := range vals {
				vals[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:])))
			}
		} else {
			vals = make([]float64, len(raw)/8)
			for i := range vals {
				vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
			}
		}
		th := DefaultThresholds
		th.SpikeWindow = 3 + int(w%64)
		if w >= 128 {
			th.SpikeMinRel = 0
		}
		s := seriesOf(vals)
		want := spikesReference(s, th)
		if got := scalarSpikes(s, th); !reflect.DeepEqual(got, want) {
			t.Fatalf("window %d: got %+v, want %+v", th.SpikeWindow, got, want)
		}
		// With buckets twice as long as the window (the coarse stage's
		// least) or longer, by the input's length.
		size := 2*th.SpikeWindow + len(raw)%7
		if got := scalarSpikes(bucketedOf(vals, size), th); !reflect.DeepEqual(got, want) {
			t.Fatalf("window %d, buckets of %d: got %+v, want %+v", th.SpikeWindow, size, got, want)
		}
	})
}

// TestClearedPointsAreNear checks the spike rule's prefilter against the
// medians found by sorts: every point it clears is within SpikeMinRel of
// the median of its window before or of its window after, on hostile
// series and windows of several sizes, so that it never hides a spike.
func TestClearedPointsAreNear(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for name, vs := range hostileSeries(rng) {
		vals := finiteValues("", points(vs...), nil, 0).vals
		for _, w := range []int{3, 4, 20, 33} {
			if len(vals) < 2*w+1 {
				continue
			}
			rel := DefaultThresholds.SpikeMinRel
			cleared := clearedPoints(vals, w, rel, coarseCleared(bucketedOf(vs, 2*w+len(vals)%5), w, rel), nil)
			for i := w; i+w < len(vals); i++ {
				if cleared[i>>6]&(1<<(i&63)) == 0 {
					continue
				}
				near := func(win []float64) bool {
					med := refMedian(slices.Clone(win))
					d := math.Abs(vals[i] - med)
					return d == 0 || d <= DefaultThresholds.SpikeMinRel*math.Abs(med)
				}
				if !near(vals[i-w:i]) && !near(vals[i+1:i+w+1]) {
					t.Fatalf("%s, window %d: point %d (%v) cleared, far from both medians", name, w, i, vals[i])
				}
			}
		}
	}
}

// TestClearedPointsOfNoise checks that the prefilter clears most points
// of a noisy series near its median, whose range is wide (a standard
// deviation of a fifth of the level: the range of two blocks is some
// 1.8 levels wide, which cleared 2% of them), and all of
// a steady one.
func TestClearedPointsOfNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, c := range []struct {
		sd   float64
		want float64 // the least fraction of points cleared
	}{{0, 1}, {0.2, 0.6}} {
		vals := make([]float64, 10_000)
		for i := range vals {
			vals[i] = 1 + c.sd*rng.NormFloat64()
		}
		cleared := clearedPoints(vals, DefaultThresholds.SpikeWindow, DefaultThresholds.SpikeMinRel, nil, nil)
		n := 0
		for _, x := range cleared {
			n += bits.OnesCount64(x)
		}
		inner := len(vals) - 2*DefaultThresholds.SpikeWindow
		if got := float64(n) / float64(inner); got < c.want {
			t.Errorf("sd %v: %.3f of the points cleared, want at least %v", c.sd, got, c.want)
		}
	}
}

// TestSortBlockOrdersByValue checks sortBlock against a sort of the
// values, on blocks of 0 to 30 values read from float32 (which it sorts
// as integers: negatives, signed zeros, subnormals, ties, the extremes)
// and from float64 (which it leaves to sortByValue): every offset once,
// in order of value.
func TestSortBlockOrdersByValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	f32 := []float32{0, float32(math.Copysign(0, -1)), 1, -1, math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32,
		math.MaxFloat32, -math.MaxFloat32, 0.5, -0.5, 3}
	for trial := range 5000 {
		n := rng.IntN(31)
		vals := make([]float64, n)
		for i := range vals {
			switch {
			case trial%3 == 2:
				vals[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10))
			case rng.IntN(2) == 0:
				vals[i] = float64(f32[rng.IntN(len(f32))])
			default:
				vals[i] = float64(float32(rng.NormFloat64()))
			}
		}
		ix := make([]int32, n)
		sortBlock(ix, vals)
		seen := make([]bool, n)
		for k, x := range ix {
			if x < 0 || int(x) >= n || seen[x] {
				t.Fatalf("trial %d: offsets %v of %v", trial, ix, vals)
			}
			seen[x] = true
			if k > 0 && vals[ix[k-1]] > vals[x] {
				t.Fatalf("trial %d: %v before %v in %v", trial, vals[ix[k-1]], vals[x], vals)
			}
		}
	}
}

// FuzzSortBlock checks sortBlock on any block of up to 30 values, read as
// float32 (the network's case) or float64 by the first byte: every
// offset once, in order of value.
func FuzzSortBlock(f *testing.F) {
	f.Add(uint8(0), []byte{0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0x80, 0xbf, 1, 0, 0, 0})
	f.Add(uint8(1), make([]byte, 8*20))
	f.Fuzz(func(t *testing.T, kind uint8, raw []byte) {
		var vals []float64
		if kind%2 == 0 {
			for i := 0; i+4 <= len(raw) && len(vals) < 30; i += 4 {
				vals = append(vals, float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[i:]))))
			}
		} else {
			for i := 0; i+8 <= len(raw) && len(vals) < 30; i += 8 {
				vals = append(vals, math.Float64frombits(binary.LittleEndian.Uint64(raw[i:])))
			}
		}
		vals = slices.DeleteFunc(vals, func(v float64) bool { return v-v != 0 }) // the rule's values are finite
		ix := make([]int32, len(vals))
		sortBlock(ix, vals)
		seen := make([]bool, len(vals))
		for k, x := range ix {
			if x < 0 || int(x) >= len(vals) || seen[x] {
				t.Fatalf("offsets %v of %v", ix, vals)
			}
			seen[x] = true
			if k > 0 && vals[ix[k-1]] > vals[x] {
				t.Fatalf("%v before %v in %v", vals[ix[k-1]], vals[x], vals)
			}
		}
	})
}

// spikeThresholds are the default thresholds and looser ones, at and
// away from their edges, for the tests of the spike rule's parts.
func spikeThresholds() []Thresholds {
	out := []Thresholds{DefaultThresholds}
	for _, f := range []func(*Thresholds){
		func(th *Thresholds) { th.SpikeMinRel = 0 },
		func(th *Thresholds) { th.SpikeMADs = 0 },
		func(th *Thresholds) { th.SpikeMADs, th.SpikeMinRel = 1, 0.01 },
		func(th *Thresholds) { th.SpikeMADs, th.SpikeMinRel = 3, 0.9 },
	} {
		th := DefaultThresholds
		f(&th)
		out = append(out, th)
	}
	return out
}

// TestChunkBoundsClearOnlyNearPoints checks the spike rule's second
// stage against medians and MADs found by sorts: every point a chunk's
// bounds clear is no spike by any window in the chunk (within
// SpikeMinRel or SpikeMADs scaled MADs of its median), on hostile series,
// windows of several sizes and thresholds; the points probed are those
// whose windows they are and others around them.
func TestChunkBoundsClearOnlyNearPoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	cleared, probed := 0, 0
	for name, vs := range hostileSeries(rng) {
		vals := finiteValues("", points(vs...), nil, 0).vals
		for _, w := range []int{3, 4, 5, 20, 33} {
			if len(vals) < 2*w+1 {
				continue
			}
			for ti, th := range spikeThresholds() {
				cs := newChunks(newBlocks(vals, w))
				cs.rel, cs.madScale = th.SpikeMinRel, th.SpikeMADs*1.4826
				for j := 0; j+w <= len(vals); j++ {
					b := cs.get(j/w).side(j%w, w/2)
					med, mad := refMedianMAD(vals[j : j+w])
					for _, x := range vals[max(0, j-w-1):min(len(vals), j+2*w+1)] {
						probed++
						if !b.clears(x) {
							continue
						}
						cleared++
						d := math.Abs(x - med)
						if d != 0 && d > th.SpikeMinRel*math.Abs(med) && d > th.SpikeMADs*1.4826*mad {
							t.Fatalf("%s, window %d at %d, thresholds %d: %v cleared, %v from the median %v (MAD %v)", name, w, j, ti, x, d, med, mad)
						}
					}
				}
			}
		}
	}
	if cleared < probed/4 {
		t.Errorf("%d of %d probes cleared: the check proves little", cleared, probed)
	}
}

// TestNearCountClearsOnlyNearPoints checks the count of one window
// against its median found by a sort: every point it clears is within
// SpikeMinRel of the median's magnitude, on hostile series, windows of
// several sizes and several SpikeMinRel, probing the series' values and
// values a few ulps either side of the edges of the near interval.
func TestNearCountClearsOnlyNearPoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	cleared, probed := 0, 0
	for name, vs := range hostileSeries(rng) {
		vals := finiteValues("", points(vs...), nil, 0).vals
		for _, w := range []int{3, 4, 20, 33} {
			for _, rel := range []float64{DefaultThresholds.SpikeMinRel, 0.01, 0.9, 1e-6} {
				nc := newNearCount(w, rel)
				for j := 0; j+w <= len(vals); j += 1 + rng.IntN(3) {
					win := vals[j : j+w]
					med := refMedian(slices.Clone(win))
					probes := slices.Clone(vals[max(0, j-w):min(len(vals), j+2*w)])
					for _, e := range []float64{med * (1 + rel), med * (1 - rel), med / (1 + rel), med / (1 - rel)} {
						for k := range int64(7) {
							probes = append(probes, math.Float64frombits(uint64(int64(math.Float64bits(e))+k-3)))
						}
					}
					for _, x := range probes {
						if x-x != 0 {
							continue
						}
						probed++
						if !nc.clears(win, x) {
							continue
						}
						cleared++
						if d := math.Abs(x - med); !(d == 0 || d <= rel*math.Abs(med)) {
							t.Fatalf("%s, window %d at %d, rel %v: %v cleared, %v from the median %v", name, w, j, rel, x, d, med)
						}
					}
				}
			}
		}
	}
	if cleared < probed/10 {
		t.Errorf("%d of %d probes cleared: the check proves little", cleared, probed)
	}
}

// TestChunkBoundsClearNoise checks that the second stage does its work
// where noise is as large as the level (the tail of p8m's lowest tag),
// which the first stage cannot clear: at least 99.5% of the points are
// cleared by a chunk's bounds, with no median. The bounds of the half of
// a chunk a window starts in (chunk.side) clear 99.9% here; the whole
// chunk's bounds, for every window in it, cleared 96.7%.
func TestChunkBoundsClearNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	vals := make([]float64, 20_000)
	for i := range vals {
		vals[i] = float64(float32(0.05 + 0.05*rng.NormFloat64()))
	}
	th := DefaultThresholds
	w := th.SpikeWindow
	cs := newChunks(newBlocks(vals, w))
	cs.rel, cs.madScale = th.SpikeMinRel, th.SpikeMADs*1.4826
	n, in := 0, 0
	for i := w; i+w < len(vals); i++ {
		n++
		if cs.get((i-w)/w).side((i-w)%w, w/2).clears(vals[i]) || cs.get((i+1)/w).side((i+1)%w, w/2).clears(vals[i]) {
			in++
		}
	}
	if got := float64(in) / float64(n); got < 0.995 {
		t.Errorf("%.4f of the points cleared by chunks' bounds, want at least 0.995", got)
	}
}

// TestRangeOfIsMinAndMax checks a block's range against slices.Min and
// slices.Max (equal values: the sign of a zero may differ) on blocks
// with and without negative values, signed zeros and extremes.
func TestRangeOfIsMinAndMax(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	special := []float64{0, math.Copysign(0, -1), math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 1, -1}
	for trial := range 5000 {
		vals := make([]float64, 1+rng.IntN(40))
		for i := range vals {
			switch rng.IntN(3) {
			case 0:
				vals[i] = special[rng.IntN(len(special))]
			case 1:
				vals[i] = math.Abs(rng.NormFloat64())
			default:
				vals[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
			}
		}
		r := rangeOf(vals)
		if r.lo != slices.Min(vals) || r.hi != slices.Max(vals) {
			t.Fatalf("trial %d: range %v of %v", trial, r, vals)
		}
	}
}

// TestDivisorIsDivision checks the spike rule's division by a multiply
// against Go's division: divisors from 2 to 2,000 and 2^31-1, dividends
// at the ends of the range it multiplies (0, multiples of the divisor
// and their neighbours, 2^32-1) and past it, and random ones.
func TestDivisorIsDivision(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	for _, d := range append([]int{2, 3, 7, 20, 64, 100, 1 << 20, 1<<31 - 1}, rng.IntN(2000)+2) {
		v := newDivisor(d)
		is := []int{0, 1, d - 1, d, d + 1, 2*d - 1, 1<<32 - 1, 1<<32 - 2, 1 << 32, 1<<40 + 3, 1<<62 + d}
		for range 10_000 {
			is = append(is, rng.IntN(1<<32))
		}
		for _, i := range is {
			if got, want := v.quo(i), i/d; got != want {
				t.Fatalf("%d / %d: %d, want %d", i, d, got, want)
			}
		}
	}
}

// TestSortNet20IsTheTable checks the written-out network for 20 keys
// against the table it comes from, on every input of zeros and ones
// (which decide a network: Knuth's 0-1 principle) and on random keys.
func TestSortNet20IsTheTable(t *testing.T) {
	table := func(k *[32]uint64) {
		for _, c := range batcher[20] {
			i, j := c&31, c>>8&31
			k[i], k[j] = min(k[i], k[j]), max(k[i], k[j])
		}
	}
	check := func(in [32]uint64) {
		a, b := in, in
		sortNet20(&a)
		table(&b)
		if a != b {
			t.Fatalf("sortNet20(%v) = %v, the table gives %v", in[:20], a[:20], b[:20])
		}
		for i := 1; i < 20; i++ {
			if a[i] < a[i-1] {
				t.Fatalf("sortNet20(%v) = %v, not sorted", in[:20], a[:20])
			}
		}
	}
	for m := range 1 << 20 {
		var in [32]uint64
		for i := range 20 {
			in[i] = uint64(m >> i & 1)
		}
		check(in)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 1000 {
		var in [32]uint64
		for i := range 20 {
			in[i] = rng.Uint64()
		}
		check(in)
	}
}
