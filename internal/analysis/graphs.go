package analysis

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/graph/hierarchy"
	"github.com/trainreport/trainreport/internal/analysis/graph/layout"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// Defaults of the graphs' Options, the budgets the graphs page states.
const (
	// DefaultGraphViewBoxes and DefaultGraphViewEdges bound one view (a
	// scope's children): dot's time grows fast with them, and one call
	// cannot be interrupted. A larger view is listed, not drawn.
	DefaultGraphViewBoxes = layout.DefaultMaxBoxes
	DefaultGraphViewEdges = layout.DefaultMaxEdges
	// DefaultGraphLayoutTime bounds the layout of one graph: the views not
	// laid out by then are listed, not drawn.
	DefaultGraphLayoutTime = 60 * time.Second
)

// graphBoxMetrics are the sizes of what assets/graphs.js draws in a box,
// which the layout sizes boxes for. This table is the one statement of
// that contract on the Go side: the layout takes it as an input and knows
// no page, render only copies the laid-out boxes, and
// TestGraphBoxMetricsMatchGraphsJS reads the same numbers back from
// graphs.js (CHAR, MAX_ANN, ANN_CHARS, ANN_LINE and the two core heights),
// so that neither side changes alone. It lives here, with the stage that
// lays graphs out for the page, rather than in package layout, which is a
// general layered layout, or in the page, whose script cannot be read by
// the layout.
var graphBoxMetrics = layout.Metrics{
	CharWidth:          6.5, // an 11 px sans-serif label averages under 6.5 px a character
	OpHeight:           24,
	GroupHeight:        36,
	AnnotationLine:     12,
	MaxAnnotations:     3,
	MaxAnnotationLabel: 16,
}

// graphs counts every graph of rep and lays out its views. Graphs of one
// shape (graphShape) are grouped and laid out once. Each distinct graph's
// hierarchy is built on a worker of its own, up to one per core, while
// another's views are laid out: the layouts themselves run one at a time,
// as Graphviz runs one call at a time in a process, each graph's time
// budget counting from the start of its own layout.
func graphs(ctx context.Context, rep *model.Report, opt Options) (result.Graphs, error) {
	b := result.GraphBudgets{ViewBoxes: opt.GraphViewBoxes, ViewEdges: opt.GraphViewEdges, LayoutTime: opt.GraphLayoutTime}
	if b.ViewBoxes <= 0 {
		b.ViewBoxes = DefaultGraphViewBoxes
	}
	if b.ViewEdges <= 0 {
		b.ViewEdges = DefaultGraphViewEdges
	}
	if b.LayoutTime <= 0 {
		b.LayoutTime = DefaultGraphLayoutTime
	}
	out := result.Graphs{Budgets: b, Of: map[*model.Graph]*result.Graph{}}
	if opt.SummaryOnly {
		for _, run := range rep.Runs {
			for i, c := range GraphCounts(run) {
				out.Of[run.Graphs[i]] = &result.Graph{Count: c}
			}
		}
		return out, nil
	}
	// The distinct graphs, in report order, and which each graph is.
	var distinct []*model.NodeGraph
	shapes := map[[32]byte]int{}
	which := map[*model.Graph]int{}
	for _, run := range rep.Runs {
		for _, g := range run.Graphs {
			k := graphShape(&g.NodeGraph)
			i, ok := shapes[k]
			if !ok {
				i = len(distinct)
				shapes[k] = i
				distinct = append(distinct, &g.NodeGraph)
			}
			which[g] = i
		}
	}
	layouts := make([]*result.GraphLayout, len(distinct))
	opts := layout.Options{MaxBoxes: b.ViewBoxes, MaxEdges: b.ViewEdges, Metrics: graphBoxMetrics,
		// dot's compiled code is kept in the user's private cache, checked
		// before use (docs/TRUST.md), so that the next report need not
		// compile it.
		CacheDir: layout.UserCacheDir()}
	var (
		next     int
		nextMu   sync.Mutex
		layingMu sync.Mutex // one graph's views at a time
		wg       sync.WaitGroup
		panicked string
	)
	for range min(runtime.GOMAXPROCS(0), len(distinct)) {
		wg.Go(func() {
			// A panic left in a worker would end the process before
			// anyone could report it: it is raised again, with the
			// worker's stack, in Build's goroutine.
			defer func() {
				if v := recover(); v != nil {
					nextMu.Lock()
					panicked = fmt.Sprintf("%v\n%s", v, debug.Stack())
					nextMu.Unlock()
				}
			}()
			for {
				nextMu.Lock()
				i := next
				next++
				nextMu.Unlock()
				if i >= len(distinct) || ctx.Err() != nil {
					return
				}
				g := distinct[i]
				h := hierarchy.Build(g)
				layingMu.Lock()
				views := layOut(ctx, h, g, opts, b.LayoutTime)
				layingMu.Unlock()
				layouts[i] = graphLayout(h, views)
			}
		})
	}
	wg.Wait()
	if panicked != "" {
		panic(fmt.Sprintf("laying out the graphs: %v", panicked))
	}
	if err := ctx.Err(); err != nil {
		return result.Graphs{}, err
	}
	for _, run := range rep.Runs {
		for _, g := range run.Graphs {
			lg := layouts[which[g]]
			out.Of[g] = &result.Graph{Count: graphCount(g, lg.Edges), Layout: lg}
		}
	}
	return out, nil
}

// layOut lays out h's views within budget, or until ctx is done.
func layOut(ctx context.Context, h *hierarchy.Hierarchy, g *model.NodeGraph, opt layout.Options, budget time.Duration) []layout.View {
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	return layout.Views(ctx, h, g, opt)
}

// GraphCounts counts the nodes and edges of each graph of run, in the
// run's order, without grouping or laying any out: what `trainreport
// inspect` prints. Build's counts (summary.json, the overview) are the
// same, taken from the hierarchy it builds anyway (FuzzBuild checks that
// hierarchy.Count and hierarchy.Build agree).
func GraphCounts(run *model.Run) []result.GraphCount {
	var out []result.GraphCount
	for _, g := range run.Graphs {
		out = append(out, graphCount(g, hierarchy.Count(&g.NodeGraph).Edges))
	}
	return out
}

func graphCount(g *model.Graph, edges int) result.GraphCount {
	return result.GraphCount{Source: string(g.Source), Tag: g.Tag, Step: g.Step, Nodes: len(g.Nodes), Edges: edges, Seen: g.Seen}
}

// graphLayout is h with its views, as the outputs read them.
func graphLayout(h *hierarchy.Hierarchy, views []layout.View) *result.GraphLayout {
	lg := &result.GraphLayout{Edges: h.Edges, Dangling: h.Dangling, Duplicates: h.Duplicates, Parent: h.Parent,
		Inputs: make([]result.GraphInput, len(h.Inputs)), Groups: make([]result.GraphGroup, len(h.Groups))}
	for i, in := range h.Inputs {
		lg.Inputs[i] = result.GraphInput{Node: in.Node, Output: in.Output}
	}
	for gi, grp := range h.Groups {
		v := views[gi]
		rg := result.GraphGroup{Name: grp.Name, Label: grp.Label, Kind: graphKind(grp.Kind), Parent: grp.Parent, Ops: grp.Ops,
			Width: v.Width, Height: v.Height, Skipped: v.Skipped,
			Children: make([]result.GraphChild, len(grp.Children)), Edges: make([]result.GraphEdge, len(grp.Edges))}
		for ci, c := range grp.Children {
			rc := result.GraphChild{Kind: graphKind(c.Kind), Ref: c.Ref, Label: c.Label, Annotated: c.Annotated, Side: c.Side,
				In: annotations(c.In), Out: annotations(c.Out), ExtIn: c.ExtIn, ExtOut: c.ExtOut}
			if v.Skipped == "" && !c.Annotated {
				b := v.Boxes[ci]
				rc.Box = [4]float64{b.X, b.Y, b.W, b.H}
				rc.InWidth, rc.OutWidth = v.Sizes[ci].InW, v.Sizes[ci].OutW
			}
			rg.Children[ci] = rc
		}
		for ei, e := range grp.Edges {
			re := result.GraphEdge{From: e.From, To: e.To, Data: e.Data, Control: e.Control, Ref: e.Ref, Shape: e.Shape, Mixed: e.Mixed, Size: e.Size}
			if v.Skipped == "" && len(v.Edges[ei]) > 0 {
				re.Path = make([]float64, 0, 2*len(v.Edges[ei]))
				for _, p := range v.Edges[ei] {
					re.Path = append(re.Path, p.X, p.Y)
				}
			}
			rg.Edges[ei] = re
		}
		lg.Groups[gi] = rg
	}
	return lg
}

func graphKind(k hierarchy.Kind) result.GraphKind {
	switch k {
	case hierarchy.Scope:
		return result.GraphScope
	case hierarchy.Series:
		return result.GraphSeries
	}
	return result.GraphOp
}

func annotations(as []hierarchy.Annotation) []result.GraphAnnotation {
	if len(as) == 0 {
		return nil
	}
	out := make([]result.GraphAnnotation, len(as))
	for i, a := range as {
		out[i] = result.GraphAnnotation{Child: a.Child, Why: a.Why}
	}
	return out
}

// graphShape hashes what a graph's hierarchy and layout depend on: each
// node's name, op, inputs and output shapes.
func graphShape(g *model.NodeGraph) [32]byte {
	d := sha256.New()
	var buf []byte // reused: no copy of a name per input
	tagged := func(tag byte, s string) {
		buf = binary.LittleEndian.AppendUint64(append(buf[:0], tag), uint64(len(s)))
		buf = append(buf, s...)
		d.Write(buf)
	}
	str := func(s string) { tagged(0, s) }
	for _, nd := range g.Nodes {
		str(nd.Name)
		str(nd.Op)
		for _, in := range nd.Inputs {
			if in.Control {
				tagged(1, in.Name)
			} else {
				str(in.Name)
			}
		}
		tagged(2, "") // the end of the inputs
		for _, s := range nd.OutputShapes {
			str(s.String())
		}
		tagged(2, "")
	}
	var sum [32]byte
	d.Sum(sum[:0])
	return sum
}
