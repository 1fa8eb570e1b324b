package layout

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/graph/hierarchy"
)

// checkViews checks the layout invariants of every laid-out view: no two
// boxes overlap, every box lies inside its view, every edge starts at its
// producer's box and ends at its consumer's.
func checkViews(t *testing.T, h *hierarchy.Hierarchy, views []View) {
	t.Helper()
	if len(views) != len(h.Groups) {
		t.Fatalf("%d views for %d groups", len(views), len(h.Groups))
	}
	for gi, v := range views {
		grp := h.Groups[gi]
		if v.Skipped != "" {
			t.Errorf("group %q: %s", grp.Name, v.Skipped)
			continue
		}
		frame := Rect{0, 0, v.Width, v.Height}
		var drawn []int
		for ci, c := range grp.Children {
			if c.Annotated {
				continue
			}
			b := v.Boxes[ci]
			if b.W <= 0 || b.H <= 0 {
				t.Errorf("group %q child %q: empty box %+v", grp.Name, c.Label, b)
			}
			if !frame.Contains(b) {
				t.Errorf("group %q child %q: box %+v outside the view %+v", grp.Name, c.Label, b, frame)
			}
			for _, o := range drawn {
				if b.Overlaps(v.Boxes[o]) {
					t.Errorf("group %q: %q %+v overlaps %q %+v", grp.Name, c.Label, b, grp.Children[o].Label, v.Boxes[o])
				}
			}
			drawn = append(drawn, ci)
		}
		for ei, e := range grp.Edges {
			pts := v.Edges[ei]
			if len(pts) < 4 || (len(pts)-1)%3 != 0 {
				t.Errorf("group %q edge %d: %d points, not a cubic spline", grp.Name, ei, len(pts))
				continue
			}
			if d := distance(pts[0], v.Boxes[e.From]); d > 2 {
				t.Errorf("group %q edge %q->%q starts %.1f px from its producer", grp.Name, grp.Children[e.From].Label, grp.Children[e.To].Label, d)
			}
			if d := distance(pts[len(pts)-1], v.Boxes[e.To]); d > 2 {
				t.Errorf("group %q edge %q->%q ends %.1f px from its consumer", grp.Name, grp.Children[e.From].Label, grp.Children[e.To].Label, d)
			}
		}
	}
}

// distance from p to the nearest point of r (0 inside).
func distance(p Point, r Rect) float64 {
	dx := max(r.X-p.X, 0, p.X-(r.X+r.W))
	dy := max(r.Y-p.Y, 0, p.Y-(r.Y+r.H))
	return math.Hypot(dx, dy)
}

func TestResNetLikeInvariants(t *testing.T) {
	g := resnetLike(1000)
	h := hierarchy.Build(g)
	views := Views(context.Background(), h, g, Options{Metrics: testMetrics})
	checkViews(t, h, views)
	again := Views(context.Background(), hierarchy.Build(g), g, Options{Metrics: testMetrics})
	if !reflect.DeepEqual(views, again) {
		t.Error("two layouts of one graph differ")
	}
}

func TestBudget(t *testing.T) {
	g := &model.NodeGraph{}
	for i := range 30 {
		g.Nodes = append(g.Nodes, model.Node{Name: string(rune('a'+i%26)) + string(rune('a'+i/26)), Op: "NoOp"})
	}
	h := hierarchy.Build(g)
	views := Views(context.Background(), h, g, Options{MaxBoxes: 20, Metrics: testMetrics})
	if views[0].Skipped == "" {
		t.Errorf("30 boxes laid out under a budget of 20")
	}
	for i := 1; i < len(g.Nodes); i++ { // 29 edges, a chain
		g.Nodes[i].Inputs = []model.NodeInput{{Name: g.Nodes[i-1].Name}}
	}
	h = hierarchy.Build(g)
	if v := Views(context.Background(), h, g, Options{MaxEdges: 20, Metrics: testMetrics}); !strings.Contains(v[0].Skipped, "29 edges") {
		t.Errorf("29 edges laid out under a budget of 20: %q", v[0].Skipped)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if v := Views(ctx, h, g, Options{Metrics: testMetrics}); v[0].Skipped == "" {
		t.Errorf("laid out after the deadline")
	}
}

// testMetrics are box metrics for the tests: those of a page that draws
// an 11 px label, the layout's caller states the real ones.
var testMetrics = Metrics{CharWidth: 6.5, OpHeight: 24, GroupHeight: 36, AnnotationLine: 12, MaxAnnotations: 3, MaxAnnotationLabel: 16}

// The layout knows no page: without the metrics of what a box holds it
// lays out nothing, and says why, rather than sizing boxes for a page it
// would have to guess.
func TestNoMetricsNoLayout(t *testing.T) {
	g := resnetLike(50)
	h := hierarchy.Build(g)
	for i, v := range Views(context.Background(), h, g, Options{}) {
		if !strings.Contains(v.Skipped, "no box metrics") || v.Boxes != nil {
			t.Fatalf("view %d laid out without metrics: %q, %d boxes", i, v.Skipped, len(v.Boxes))
		}
	}
}

// Boxes are sized by the metrics given: a wider character makes wider
// boxes, taller annotation lines taller ones.
func TestBoxesFollowMetrics(t *testing.T) {
	c := hierarchy.Child{Kind: hierarchy.Op, Label: "conv1", In: make([]hierarchy.Annotation, 4)}
	w, h, s := testMetrics.childSize(c)
	wide := testMetrics
	wide.CharWidth *= 2
	w2, _, s2 := wide.childSize(c)
	if w2 <= w || s2.InW <= s.InW {
		t.Errorf("doubling the character width: box %v -> %v, annotations %v -> %v", w, w2, s.InW, s2.InW)
	}
	tall := testMetrics
	tall.AnnotationLine *= 2
	if _, h2, _ := tall.childSize(c); h2 <= h {
		t.Errorf("doubling the annotation line: height %v -> %v", h, h2)
	}
}
