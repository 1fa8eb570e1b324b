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
	views := Views(context.Background(), h, g, Options{})
	checkViews(t, h, views)
	again := Views(context.Background(), hierarchy.Build(g), g, Options{})
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
	views := Views(context.Background(), h, g, Options{MaxBoxes: 20})
	if views[0].Skipped == "" {
		t.Errorf("30 boxes laid out under a budget of 20")
	}
	for i := 1; i < len(g.Nodes); i++ { // 29 edges, a chain
		g.Nodes[i].Inputs = []model.NodeInput{{Name: g.Nodes[i-1].Name}}
	}
	h = hierarchy.Build(g)
	if v := Views(context.Background(), h, g, Options{MaxEdges: 20}); !strings.Contains(v[0].Skipped, "29 edges") {
		t.Errorf("29 edges laid out under a budget of 20: %q", v[0].Skipped)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if v := Views(ctx, h, g, Options{}); v[0].Skipped == "" {
		t.Errorf("laid out after the deadline")
	}
}
