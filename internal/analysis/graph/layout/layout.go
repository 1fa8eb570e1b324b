// Package layout places the views of a graph's hierarchy: each group's
// children as boxes and its edges as curves, bottom to top like
// TensorBoard, one group at a time so that every layout stays small and
// opening a scope is a drill-down into a view laid out in advance. The
// layered layout is Graphviz's dot (go-graphviz, carried patched in
// internal/thirdparty/graphviz: dot compiled to WebAssembly, run by
// wazero, no cgo), started by the first view that needs it.
package layout

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/graph/hierarchy"
	graphviz "github.com/trainreport/trainreport/internal/thirdparty/graphviz"
)

// Default budgets of one view: dot lays out a chain-like 1,000 boxes in
// about 0.3 s, but 300 boxes with 1,500 edges between them in 4 s (with
// fewer passes; 24 s without), and one call cannot be interrupted. A view
// past either budget is listed on the page rather than drawn.
const (
	DefaultMaxBoxes = 1000
	DefaultMaxEdges = 1500
)

// Options bound the layout.
type Options struct {
	// MaxBoxes is the most boxes a view may have to be laid out;
	// DefaultMaxBoxes when 0.
	MaxBoxes int
	// MaxEdges is the most edges a view may have to be laid out;
	// DefaultMaxEdges when 0.
	MaxEdges int
	// CacheDir is the folder dot's compiled code (about 6 MB) is kept in
	// between processes, to be read back in 0.1 s instead of compiled
	// again in 2.5 s (UserCacheDir is the usual one); "" compiles it in
	// memory. A folder that another user could have written or could
	// swap is not used (see privateCache). dot is started once per
	// process, by the first view that needs it: the CacheDir of that call
	// is the one used.
	CacheDir string
	// Metrics are the sizes of what the page draws in a box, which the
	// boxes are sized for; a view is not laid out without them.
	Metrics Metrics
}

// Point is a position in pixels, y down.
type Point struct{ X, Y float64 }

// Rect is a box in pixels: its top-left corner and size.
type Rect struct{ X, Y, W, H float64 }

// Contains reports whether q lies inside r, borders included.
func (r Rect) Contains(q Rect) bool {
	const eps = 0.05 // positions are rounded to 0.1 px
	return q.X >= r.X-eps && q.Y >= r.Y-eps && q.X+q.W <= r.X+r.W+eps && q.Y+q.H <= r.Y+r.H+eps
}

// Overlaps reports whether r and q share more than a border.
func (r Rect) Overlaps(q Rect) bool {
	return r.X < q.X+q.W && q.X < r.X+r.W && r.Y < q.Y+q.H && q.Y < r.Y+r.H
}

// View is the layout of one group: a box per child (the zero Rect for a
// child drawn as annotations) and a curve per edge of the group.
type View struct {
	Width, Height float64
	Boxes         []Rect
	// Sizes are each child's annotation columns: the widths of the in
	// annotations drawn left of the node and of the out annotations drawn
	// right of it, inside its box.
	Sizes []Size
	// Edges are, per edge of the group, the control points of a cubic
	// Bézier spline from the producer's box to the consumer's: 1 + 3k
	// points.
	Edges [][]Point
	// Skipped says why the view was not laid out (too many boxes, the time
	// ran out, dot failed); the page lists the children instead.
	Skipped string
}

// Views lays out every group of h, the deepest first, and returns a view
// per group. A view that cannot be laid out says why in Skipped; when ctx
// is done the remaining views are skipped, so that a deadline bounds the
// whole.
func Views(ctx context.Context, h *hierarchy.Hierarchy, g *model.NodeGraph, opt Options) []View {
	if opt.MaxBoxes <= 0 {
		opt.MaxBoxes = DefaultMaxBoxes
	}
	if opt.MaxEdges <= 0 {
		opt.MaxEdges = DefaultMaxEdges
	}
	views := make([]View, len(h.Groups))
	order := make([]int, len(h.Groups))
	for i := range order {
		order[i] = i
	}
	// Deepest first, then by index: the order never changes the result,
	// but a deadline then leaves the top views, the ones opened first,
	// for last; so the root is laid out before anything else.
	sortByDepth(order, h)
	if err := opt.Metrics.check(); err != nil {
		for i := range views {
			views[i].Skipped = "not laid out: " + err.Error()
		}
		return views
	}
	// go-graphviz keeps one WebAssembly module for the whole process
	// (package cgraph's parser shares it), so its calls cannot run
	// concurrently: views are laid out one at a time, under dotMu.
	w := worker{opt: opt}
	defer w.close()
	for _, gi := range order {
		w.view(ctx, h.Groups[gi], g, &views[gi])
	}
	return views
}

// dotMu serialises every use of go-graphviz in the process: its
// WebAssembly module is a package variable of the library, shared by all
// its instances.
var dotMu sync.Mutex

// worker lays out views with a Graphviz started when first needed: a
// view of one box needs none.
type worker struct {
	opt   Options
	gv    *graphviz.Graphviz
	gvErr error
	tried bool
}

func (w *worker) close() {
	if w.gv != nil {
		dotMu.Lock()
		w.gv.Close()
		dotMu.Unlock()
	}
}

func (w *worker) view(ctx context.Context, grp *hierarchy.Group, g *model.NodeGraph, v *View) {
	if err := ctx.Err(); err != nil {
		v.Skipped = "not laid out: the layout's time budget ran out"
		return
	}
	boxes := 0
	for _, c := range grp.Children {
		if !c.Annotated {
			boxes++
		}
	}
	if boxes > w.opt.MaxBoxes {
		v.Skipped = fmt.Sprintf("not laid out: %d boxes, above the budget of %d a view", boxes, w.opt.MaxBoxes)
		return
	}
	if len(grp.Edges) > w.opt.MaxEdges {
		v.Skipped = fmt.Sprintf("not laid out: %d edges, above the budget of %d a view", len(grp.Edges), w.opt.MaxEdges)
		return
	}
	if needsDot(grp) && !w.tried {
		w.tried = true
		dotMu.Lock()
		if w.gvErr = startEngine(w.opt.CacheDir); w.gvErr == nil {
			w.gv, w.gvErr = graphviz.New(ctx)
		}
		dotMu.Unlock()
	}
	if needsDot(grp) && w.gvErr != nil {
		v.Skipped = fmt.Sprintf("not laid out: starting Graphviz: %v", w.gvErr)
		return
	}
	if err := layOut(ctx, w.gv, w.opt.Metrics, grp, g, v); err != nil {
		*v = View{Skipped: fmt.Sprintf("not laid out: %v", err)}
	}
}

// sortByDepth orders groups with the root first, then the deepest first,
// then by index.
func sortByDepth(order []int, h *hierarchy.Hierarchy) {
	depth := func(gi int) int {
		if gi == 0 {
			return math.MaxInt
		}
		return h.Groups[gi].Depth
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(depth(b), depth(a)) })
}

// round keeps a coordinate to 0.1 px, so that output bytes do not depend
// on float noise.
func round(x float64) float64 { return math.Round(x*10) / 10 }
