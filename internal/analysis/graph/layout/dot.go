package layout

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/graph/hierarchy"
	graphviz "github.com/trainreport/trainreport/internal/thirdparty/graphviz"
)

// denseEdges is the number of edges past which a view is laid out with
// fewer passes of dot.
const denseEdges = 200

// Spacing of a view, in pixels.
const (
	margin  = 20 // around the drawing
	sideGap = 40 // between the graph and the side box
	sideSep = 10 // between boxes of the side box
	dpi     = 72 // Graphviz's points per inch
)

// layOut lays out one group: its boxes by dot, from a graph whose nodes
// are named by index (no name from a log reaches dot), then the side box
// as a column to the right.
func layOut(ctx context.Context, gv *graphviz.Graphviz, m Metrics, grp *hierarchy.Group, g *model.NodeGraph, v *View) error {
	n := len(grp.Children)
	v.Boxes = make([]Rect, n)
	v.Sizes = make([]Size, n)
	v.Edges = make([][]Point, len(grp.Edges))
	var src bytes.Buffer
	src.WriteString("digraph{rankdir=BT;nodesep=0.25;ranksep=0.4;node[shape=box,fixedsize=true,label=\".\"];edge[dir=none];\n")
	if len(grp.Edges) > denseEdges {
		// dot's crossing minimisation and network simplex grow fast with
		// edges (300 boxes and 1,500 edges: 24 s): fewer passes of each
		// bring that to 4 s, the drawing a little more tangled.
		src.WriteString("mclimit=0.3;nslimit=3;nslimit1=3;\n")
	}
	linked := make([]bool, n)
	for _, e := range grp.Edges {
		linked[e.From], linked[e.To] = true, true
	}
	// Boxes with no edge in the view are left out of dot, which would put
	// them all in one row, and set in rows under its drawing.
	var loose []int
	main := 0
	for ci, c := range grp.Children {
		w, h, s := m.childSize(c)
		v.Sizes[ci] = s
		v.Boxes[ci] = Rect{W: w, H: h}
		if c.Annotated || c.Side {
			continue
		}
		if !linked[ci] {
			loose = append(loose, ci)
			continue
		}
		main++
		fmt.Fprintf(&src, "n%d[width=%.3f,height=%.3f];\n", ci, w/dpi, h/dpi)
	}
	for _, e := range grp.Edges {
		fmt.Fprintf(&src, "n%d->n%d;\n", e.From, e.To)
	}
	src.WriteString("}\n")
	width, height := 0.0, 0.0
	if chain := chainOf(grp, linked); chain != nil {
		width, height = placeChain(v, grp, chain)
	} else if main > 0 {
		var err error
		if width, height, err = runDot(ctx, gv, src.Bytes(), grp, v); err != nil {
			return err
		}
	}
	if len(loose) > 0 {
		width, height = placeRows(v, loose, width, height)
	}
	// The side box: a column right of the graph, top-aligned.
	x, y := margin+width, float64(margin)
	if width > 0 {
		x += sideGap
	}
	sideW := 0.0
	for ci, c := range grp.Children {
		if !c.Side {
			continue
		}
		b := &v.Boxes[ci]
		b.X, b.Y = round(x), round(y)
		y += b.H + sideSep
		sideW = max(sideW, b.W)
		height = max(height, y-sideSep-margin)
	}
	for ci, c := range grp.Children {
		if c.Annotated {
			v.Boxes[ci] = Rect{}
		}
	}
	v.Width = round(x + sideW + margin)
	if sideW == 0 {
		v.Width = round(margin + width + margin)
	}
	v.Height = round(height + 2*margin)
	return nil
}

// needsDot reports whether a group's view needs dot: whether its edges
// are more than one chain.
func needsDot(grp *hierarchy.Group) bool {
	if len(grp.Edges) == 0 {
		return false
	}
	linked := make([]bool, len(grp.Children))
	for _, e := range grp.Edges {
		linked[e.From], linked[e.To] = true, true
	}
	return chainOf(grp, linked) == nil
}

// chainOf returns the boxes of a view whose edges form one chain, a -> b
// -> c, in order from its start, or nil when they do not. Most scopes of
// real graphs are chains (a variable and its read, a layer's ops), and dot
// would stack them: they are stacked here without calling it, in the
// same way.
func chainOf(grp *hierarchy.Group, linked []bool) []int {
	if len(grp.Edges) == 0 {
		return nil
	}
	next := map[int]int{}
	hasPrev := map[int]bool{}
	for _, e := range grp.Edges {
		if _, dup := next[e.From]; dup || hasPrev[e.To] {
			return nil
		}
		next[e.From] = e.To
		hasPrev[e.To] = true
	}
	start := -1
	for ci := range grp.Children {
		if linked[ci] && !hasPrev[ci] {
			if start >= 0 {
				return nil // two chains
			}
			start = ci
		}
	}
	if start < 0 {
		return nil // a cycle
	}
	chain := []int{start}
	for c := start; ; {
		n, ok := next[c]
		if !ok {
			break
		}
		chain = append(chain, n)
		c = n
	}
	if len(chain) != len(grp.Edges)+1 {
		return nil // a cycle beside the chain
	}
	return chain
}

// chainGap is the vertical gap between the boxes of a chain: dot's ranksep
// of 0.4 inch.
const chainGap = 0.4 * dpi

// placeChain stacks a chain's boxes bottom to top, centred, and draws
// each edge as a straight cubic from the top of a box to the bottom of the
// next, returning the drawing's size.
func placeChain(v *View, grp *hierarchy.Group, chain []int) (w, h float64) {
	for _, ci := range chain {
		w = max(w, v.Boxes[ci].W)
		h += v.Boxes[ci].H
	}
	h += chainGap * float64(len(chain)-1)
	y := margin + h
	for _, ci := range chain {
		b := &v.Boxes[ci]
		y -= b.H
		b.X, b.Y = round(margin+(w-b.W)/2), round(y)
		y -= chainGap
	}
	cx := round(margin + w/2)
	for ei, e := range grp.Edges {
		y0, y1 := v.Boxes[e.From].Y, v.Boxes[e.To].Y+v.Boxes[e.To].H
		v.Edges[ei] = []Point{{cx, y0}, {cx, round(y0 + (y1-y0)/3)}, {cx, round(y0 + 2*(y1-y0)/3)}, {cx, y1}}
	}
	return w, h
}

// rowWidth is the least width rows of loose boxes wrap at.
const rowWidth = 900

// placeRows sets the boxes loose in rows under a drawing of width w and
// height h (0 when there is none), wrapping at the wider of w and
// rowWidth, and returns the size of the whole.
func placeRows(v *View, loose []int, w, h float64) (float64, float64) {
	const gap = 12
	limit := max(w, rowWidth)
	y := margin + h
	if h > 0 {
		y += 2 * gap
	}
	x, rowH := 0.0, 0.0
	for _, ci := range loose {
		b := &v.Boxes[ci]
		if x > 0 && x+b.W > limit {
			y += rowH + gap
			x, rowH = 0, 0
		}
		b.X, b.Y = round(margin+x), round(y)
		x += b.W + gap
		rowH = max(rowH, b.H)
		w = max(w, x-gap)
	}
	return w, y + rowH - margin
}

// runDot runs dot on src and reads its plain output into v's main boxes
// and edges, returning the drawing's size in pixels.
func runDot(ctx context.Context, gv *graphviz.Graphviz, src []byte, grp *hierarchy.Group, v *View) (w, h float64, err error) {
	out, err := dot(ctx, gv, src)
	if err != nil {
		return 0, 0, err
	}
	return readPlain(out, grp, v)
}

// dot runs dot on src and returns its plain output.
func dot(ctx context.Context, gv *graphviz.Graphviz, src []byte) (*bytes.Buffer, error) {
	dotMu.Lock()
	defer dotMu.Unlock()
	gr, err := graphviz.ParseBytes(src)
	if err != nil {
		return nil, fmt.Errorf("dot input: %w", err)
	}
	defer gr.Close()
	var out bytes.Buffer
	if err := gv.Render(ctx, gr, graphviz.Format("plain"), &out); err != nil {
		return nil, fmt.Errorf("dot: %w", err)
	}
	return &out, nil
}

// readPlain reads dot's plain output into v's main boxes and edges,
// returning the drawing's size in pixels.
func readPlain(out *bytes.Buffer, grp *hierarchy.Group, v *View) (w, h float64, err error) {
	edgeOf := make(map[[2]int]int, len(grp.Edges))
	for ei, e := range grp.Edges {
		edgeOf[[2]int{e.From, e.To}] = ei
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<24)
	var gh float64 // the drawing's height in inches, to turn y down
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "graph":
			if len(f) < 4 {
				return 0, 0, fmt.Errorf("dot output: short graph line")
			}
			gw, err1 := strconv.ParseFloat(f[2], 64)
			g2, err2 := strconv.ParseFloat(f[3], 64)
			if err1 != nil || err2 != nil {
				return 0, 0, fmt.Errorf("dot output: graph size %q %q", f[2], f[3])
			}
			gh, w, h = g2, gw*dpi, g2*dpi
		case "node":
			if len(f) < 4 {
				return 0, 0, fmt.Errorf("dot output: short node line")
			}
			ci, err := childIndex(f[1], len(v.Boxes))
			if err != nil {
				return 0, 0, err
			}
			x, err1 := strconv.ParseFloat(f[2], 64)
			y, err2 := strconv.ParseFloat(f[3], 64)
			if err1 != nil || err2 != nil {
				return 0, 0, fmt.Errorf("dot output: node position %q %q", f[2], f[3])
			}
			b := &v.Boxes[ci]
			b.X = round(margin + x*dpi - b.W/2)
			b.Y = round(margin + (gh-y)*dpi - b.H/2)
		case "edge":
			if len(f) < 4 {
				return 0, 0, fmt.Errorf("dot output: short edge line")
			}
			from, err1 := childIndex(f[1], len(v.Boxes))
			to, err2 := childIndex(f[2], len(v.Boxes))
			k, err3 := strconv.Atoi(f[3])
			if err1 != nil || err2 != nil || err3 != nil || k < 0 || len(f) < 4+2*k {
				return 0, 0, fmt.Errorf("dot output: edge %q", strings.Join(f[:4], " "))
			}
			ei, ok := edgeOf[[2]int{from, to}]
			if !ok {
				return 0, 0, fmt.Errorf("dot output: edge n%d->n%d not asked for", from, to)
			}
			pts := make([]Point, k)
			for i := range k {
				x, err1 := strconv.ParseFloat(f[4+2*i], 64)
				y, err2 := strconv.ParseFloat(f[5+2*i], 64)
				if err1 != nil || err2 != nil {
					return 0, 0, fmt.Errorf("dot output: edge point %q %q", f[4+2*i], f[5+2*i])
				}
				pts[i] = Point{round(margin + x*dpi), round(margin + (gh-y)*dpi)}
			}
			v.Edges[ei] = pts
		}
	}
	return w, h, sc.Err()
}

// childIndex reads a node name "n12" of the dot input back.
func childIndex(name string, n int) (int, error) {
	i, err := strconv.Atoi(strings.TrimPrefix(name, "n"))
	if err != nil || i < 0 || i >= n || !strings.HasPrefix(name, "n") {
		return 0, fmt.Errorf("dot output: node %q not asked for", name)
	}
	return i, nil
}
