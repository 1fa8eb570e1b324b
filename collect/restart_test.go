package collect

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	pb "github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/collect/series"
)

// SessionLog STARTs are applied to a tag when it is next touched, not to
// every tag at once. Random streams of values of a few tags and STARTs
// must keep exactly the points that applying each START to every tag at
// once keeps (series.Scalars, purged eagerly, is the reference).
func TestLazyStartsPurgeAsEagerOnes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		tags := []string{"a", "b", "c", "d"}[:1+rng.IntN(4)]
		want := map[string]*series.Scalars{}
		evs := []*pb.Event{fileVersion()}
		for range 1 + rng.IntN(60) {
			step := int64(rng.IntN(30))
			if rng.IntN(5) == 0 {
				evs = append(evs, sessionStart(step))
				for _, s := range want {
					s.Purge(step)
				}
				continue
			}
			tag := tags[rng.IntN(len(tags))]
			v := float32(rng.IntN(1000))
			evs = append(evs, summary(step, simple(tag, v)))
			if want[tag] == nil {
				want[tag] = &series.Scalars{}
			}
			want[tag].Add(model.Point{WallTime: 1000 + float64(step), Step: step, Value: float64(v)}, 1, false)
		}
		dir := t.TempDir()
		writeFiles(t, dir, []file{{ev100, eventFile(t, evs...)}})
		rep := collectDir(t, dir, Options{})
		got := map[string][]model.Point{}
		for _, r := range rep.Runs {
			for _, s := range r.Scalars {
				got[s.Tag] = s.Points
			}
		}
		for tag, s := range want {
			if len(s.Points) == 0 && len(got[tag]) == 0 {
				continue
			}
			if !slices.Equal(got[tag], s.Points) {
				t.Fatalf("trial %d, tag %s:\ngot  %v\nwant %v", trial, tag, got[tag], s.Points)
			}
		}
		rep.Close()
	}
}

// 3,000 tags and 3,000 STARTs cost what their values do, not their
// product (30,000 x 20,000 in 849 KB took 28 s when every START walked
// every tag).
func TestStartsDoNotWalkEveryTag(t *testing.T) {
	var vals []*pb.SummaryValue
	for i := range 3000 {
		vals = append(vals, simple(fmt.Sprintf("t%d", i), 1))
	}
	evs := []*pb.Event{fileVersion(), summary(10, vals...)}
	for i := range 3000 {
		evs = append(evs, sessionStart(int64(20+i)))
	}
	evs = append(evs, summary(5, simple("t0", 2)))
	dir := t.TempDir()
	writeFiles(t, dir, []file{{ev100, eventFile(t, evs...)}})
	rep := collectDir(t, dir, Options{})
	defer rep.Close()
	if n := len(rep.Runs[0].Scalars); n != 3000 {
		t.Fatalf("%d tags", n)
	}
}
