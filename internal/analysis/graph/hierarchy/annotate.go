package hierarchy

import (
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
)

// minExtractChildren is the fewest boxes a view must have before nodes of
// high degree leave it for the side box: in a small view they are the
// structure, not a tangle.
const minExtractChildren = 10

// annotate turns a group's constant inputs and summary outputs into
// annotations on their neighbours, as TensorBoard draws them: a Const
// that only feeds siblings, a *Summary op that feeds nothing.
func annotate(grp *Group, g *model.NodeGraph) {
	in := make([][]int, len(grp.Children))
	out := make([][]int, len(grp.Children))
	for ei, e := range grp.Edges {
		out[e.From] = append(out[e.From], ei)
		in[e.To] = append(in[e.To], ei)
	}
	drop := map[int]bool{}
	for ci := range grp.Children {
		c := &grp.Children[ci]
		if c.Kind != Op {
			continue
		}
		op := g.Nodes[c.Ref].Op
		switch {
		case op == "Const" && len(in[ci]) == 0 && c.ExtIn+c.ExtOut == 0 && len(out[ci]) > 0:
			c.Annotated = true
			for _, ei := range out[ci] {
				t := &grp.Children[grp.Edges[ei].To]
				t.In = append(t.In, Annotation{Child: ci, Why: "constant"})
				drop[ei] = true
			}
		case strings.HasSuffix(op, "Summary") && len(out[ci]) == 0 && c.ExtOut == 0 && len(in[ci]) > 0:
			c.Annotated = true
			for _, ei := range in[ci] {
				f := &grp.Children[grp.Edges[ei].From]
				f.Out = append(f.Out, Annotation{Child: ci, Why: "summary"})
				drop[ei] = true
			}
		}
	}
	dropEdges(grp, drop)
}

// extractHighDegree moves the children of unusually high degree to the
// view's side box, by TensorBoard's rule: a degree above max(Q3 + IQR, 4)
// over the view's boxes. Their edges become annotations on the
// neighbours. A child holding more than half the view's ops stays: it is
// the view's main body (MindSpore's "Default" beside its parameters, a
// Keras graph's "training"), of high degree because everything else
// feeds it, and the side box is for hubs beside the body, not the body.
func extractHighDegree(grp *Group, groups []*Group) {
	deg := make([]int, len(grp.Children))
	var boxes []int
	for ci, c := range grp.Children {
		if !c.Annotated {
			boxes = append(boxes, ci)
		}
	}
	if len(boxes) < minExtractChildren {
		return
	}
	for _, e := range grp.Edges {
		deg[e.From]++
		deg[e.To]++
	}
	ds := make([]float64, len(boxes))
	for i, ci := range boxes {
		ds[i] = float64(deg[ci])
	}
	slices.Sort(ds)
	q1, q3 := quantile(ds, 0.25), quantile(ds, 0.75)
	limit := max(q3+(q3-q1), 4)
	side := map[int]bool{}
	for _, ci := range boxes {
		if c := grp.Children[ci]; c.Kind != Op && 2*groups[c.Ref].Ops > grp.Ops {
			continue
		}
		if float64(deg[ci]) > limit {
			side[ci] = true
			grp.Children[ci].Side = true
		}
	}
	if len(side) == 0 {
		return
	}
	drop := map[int]bool{}
	for ei, e := range grp.Edges {
		switch {
		case side[e.From] && side[e.To]:
		case side[e.From]:
			t := &grp.Children[e.To]
			t.In = append(t.In, Annotation{Child: e.From, Why: "side"})
		case side[e.To]:
			f := &grp.Children[e.From]
			f.Out = append(f.Out, Annotation{Child: e.To, Why: "side"})
		default:
			continue
		}
		drop[ei] = true
	}
	dropEdges(grp, drop)
}

// quantile of sorted xs by linear interpolation between closest ranks.
func quantile(xs []float64, q float64) float64 {
	pos := q * float64(len(xs)-1)
	i := int(pos)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + (pos-float64(i))*(xs[i+1]-xs[i])
}

// dropEdges removes the edges drawn as annotations from a group's view.
// Their counts stay in the annotations' neighbours' details.
func dropEdges(grp *Group, drop map[int]bool) {
	if len(drop) == 0 {
		return
	}
	kept := grp.Edges[:0:0]
	for ei, e := range grp.Edges {
		if !drop[ei] {
			kept = append(kept, e)
		}
	}
	grp.Edges = kept
}
