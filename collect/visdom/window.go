package visdom

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// windowState is a window while a file is read: a replay log's updates
// change its traces and text before they are reduced (finish).
type windowState struct {
	id, title, typ string
	order          int
	offset         int64
	// Plot windows.
	traces  []rawTrace
	layout  rawLayout
	caption string
	// Text windows: the lines of the HTML (split at "<br>", which the
	// server joins appended text with), so that appends cost little.
	lines    []string
	appended bool // the server keeps the last maxTextLines once appended to
	// Other windows: their content as written; image_history and
	// plot_history windows: each item.
	content json.RawMessage
	items   []json.RawMessage
	cut     string
	ragged  bool // a ragged grid was left out (said once)
	// deep is set when a value of the window was left out for its depth
	// (said once): what that makes of its content is not said again.
	deep bool
}

// visdomTypes are the window types whose content is the first trace's
// "content" instead of a Plotly figure (the server's window()).
var visdomTypes = []string{"image", "text", "properties", "network", "embeddings", "image_history", "plot_history"}

// parseTraces reads a plot's traces, within maxTraces, for window ws (a
// problem goes at off).
func (r *reader) parseTraces(raws []json.RawMessage, ws *windowState, off int64) []rawTrace {
	if len(raws) > maxTraces {
		ws.cut = fmt.Sprintf("%d of its %d traces kept", maxTraces, len(raws))
		raws = raws[:maxTraces]
	}
	out := make([]rawTrace, 0, len(raws))
	for i, b := range raws {
		var j traceJSON
		if json.Unmarshal(b, &j) != nil {
			continue // not an object: nothing to draw
		}
		t := rawTrace{Type: j.Type, Name: j.Name, Mode: j.Mode, YAxis: j.YAxis,
			X: r.values(j.X, ws, off, i, "x"), Y: r.values(j.Y, ws, off, i, "y"), Z: r.values(j.Z, ws, off, i, "z"),
			Labels: r.values(j.Labels, ws, off, i, "labels"), Values: r.values(j.Values, ws, off, i, "values")}
		out = append(out, t)
	}
	return out
}

// values reads an array of a trace of window ws (decodeValues). A ragged
// grid is padded to its widest row, as Plotly draws it (the missing cells
// are gaps), only when the padding adds no more cells than the grid holds
// and the grid fits the file's budget of numbers: the cells of a grid of
// one long row and many empty ones are rows × the longest row, which a
// small file could make any size. A grid past that is left out, with one
// problem for the window.
func (r *reader) values(b json.RawMessage, ws *windowState, off int64, trace int, field string) values {
	v, g, ok := decodeValues(b, func(g grid) bool {
		p := g.padded()
		return p >= 0 && p <= maxNumbers && p-g.cells <= g.cells
	})
	if ok {
		return v
	}
	size := "more than 2^63"
	if p := g.padded(); p >= 0 {
		size = strconv.Itoa(p)
	}
	what := fmt.Sprintf("trace %d's %s", trace+1, field)
	if !ws.ragged {
		ws.ragged = true
		ws.cut = joinCut(ws.cut, fmt.Sprintf("%s left out: a ragged grid that would pad to %s cells", what, size))
		r.problem(off, "window %q: %s left out: a ragged grid (%d numbers in %d rows, the longest %d) would pad to %s cells, more than twice the numbers it holds or than the file's budget of %d",
			clip(ws.id), what, g.cells, g.rows, g.cols, size, maxNumbers)
	}
	return v
}

// fromSaved reads a window of a saved environment.
func (r *reader) fromSaved(id string, b json.RawMessage) (*windowState, error) {
	var w rawWindow
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, fmt.Errorf("window %q: %w", clip(id), err)
	}
	ws := &windowState{id: string(w.ID), title: string(w.Title), typ: string(w.Type)}
	if ws.id == "" {
		ws.id = id
	}
	if i, ok := number(w.I); ok && i >= 0 && i < 1e9 {
		ws.order = int(i)
	} else {
		ws.order = 1e9 // windows without "i" last, as the server orders them
	}
	switch ws.typ {
	case "plot":
		var p rawPlot
		if err := json.Unmarshal(w.Content, &p); err != nil {
			return nil, fmt.Errorf("window %q: plot content: %w", clip(id), err)
		}
		ws.traces = r.parseTraces(p.Data, ws, 0)
		if p.Layout != nil {
			ws.layout = *p.Layout
		}
		ws.caption = string(p.Caption)
	case "text":
		var s flexString
		if err := json.Unmarshal(w.Content, &s); err != nil {
			return nil, fmt.Errorf("window %q: text content: %w", clip(id), err)
		}
		ws.lines = strings.Split(string(s), "<br>")
	case "image_history", "plot_history":
		if err := json.Unmarshal(w.Content, &ws.items); err != nil {
			return nil, fmt.Errorf("window %q: %s content: %w", clip(id), ws.typ, err)
		}
	default:
		ws.content = w.Content
	}
	return ws, nil
}

// finish reduces a window to what the report keeps.
func (r *reader) finish(ws *windowState) *Window {
	w := &Window{ID: ws.id, Title: ws.title, Type: ws.typ, Offset: ws.offset, order: ws.order, Caption: ws.caption, Cut: ws.cut, deep: ws.deep}
	switch ws.typ {
	case "plot":
		r.plot(w, ws.traces, ws.layout)
	case "plot_history":
		// The slider's last plot is the one drawn; the others are counted.
		if n := len(ws.items); n > 0 {
			var p rawPlot
			if json.Unmarshal(ws.items[n-1], &p) == nil {
				var lay rawLayout
				if p.Layout != nil {
					lay = *p.Layout
				}
				traces := r.parseTraces(p.Data, ws, ws.offset)
				w.Cut = ws.cut // with what reading the traces cut
				r.plot(w, traces, lay)
			}
			if n > 1 {
				w.Cut = joinCut(w.Cut, fmt.Sprintf("the last of its %d plots drawn", n))
			}
		}
	case "text":
		lines := ws.lines
		if ws.appended && len(lines) > maxTextLines {
			lines = lines[len(lines)-maxTextLines:]
		}
		w.Text = strings.Join(lines, "<br>")
		w.Clips = r.clips(w)
		if len(w.Text) > maxTextBytes {
			w.Text = truncUTF8(w.Text, maxTextBytes)
			w.Cut = joinCut(w.Cut, fmt.Sprintf("the first %d bytes of its text kept", maxTextBytes))
		}
	case "image":
		r.image(w, ws.content)
	case "image_history":
		items := ws.items
		if len(items) > maxImages {
			w.Cut = joinCut(w.Cut, fmt.Sprintf("the last %d of its %d images kept", maxImages, len(items)))
			items = items[len(items)-maxImages:]
		}
		for _, it := range items {
			r.image(w, it)
		}
	case "properties":
		var rows []struct {
			Type   flexString   `json:"type"`
			Name   flexString   `json:"name"`
			Value  flexString   `json:"value"`
			Values []flexString `json:"values"`
		}
		if json.Unmarshal(ws.content, &rows) != nil {
			r.windowProblem(w, "properties are not a list of {type, name, value}")
			break
		}
		if len(rows) > maxProperties {
			w.Cut = joinCut(w.Cut, fmt.Sprintf("%d of its %d properties kept", maxProperties, len(rows)))
			rows = rows[:maxProperties]
		}
		for _, p := range rows {
			v := string(p.Value)
			// A select's value is the index of the option chosen, which
			// Visdom shows by its name.
			if i, err := strconv.Atoi(v); p.Type == "select" && err == nil && i >= 0 && i < len(p.Values) {
				v = string(p.Values[i])
			}
			w.Properties = append(w.Properties, Property{string(p.Type), string(p.Name), v})
		}
	case "network":
		var n struct {
			Nodes []struct {
				Name  flexString `json:"name"`
				Label flexString `json:"label"`
			} `json:"nodes"`
			Edges []struct {
				Source flexString `json:"source"`
				Target flexString `json:"target"`
			} `json:"edges"`
		}
		json.Unmarshal(ws.content, &n)
		w.Nodes, w.Edges = len(n.Nodes), len(n.Edges)
		if !r.take(len(n.Nodes)+2*len(n.Edges), w.Offset, fmt.Sprintf("window %q", clip(w.ID))) || len(n.Nodes) > maxNodes {
			w.Cut = joinCut(w.Cut, fmt.Sprintf("a network of %d nodes and %d edges, not kept", len(n.Nodes), len(n.Edges)))
			break
		}
		// Edges name their ends by the nodes' names.
		at := map[flexString]int{}
		for i, nd := range n.Nodes {
			at[nd.Name] = i
			w.NodeLabels = append(w.NodeLabels, string(cmp.Or(nd.Label, nd.Name)))
		}
		for _, e := range n.Edges {
			s, ok1 := at[e.Source]
			t, ok2 := at[e.Target]
			if ok1 && ok2 {
				w.EdgeEnds = append(w.EdgeEnds, s, t)
			}
		}
	}
	return w
}

// windowProblem is a problem with window w, at its offset, unless a value
// of the window was left out for its depth, which was said instead.
func (r *reader) windowProblem(w *Window, format string, args ...any) {
	if !w.deep {
		r.problem(w.Offset, "window %q: %s", clip(w.ID), fmt.Sprintf(format, args...))
	}
}

// plot reduces Plotly traces to their numbers, within the file's budget.
func (r *reader) plot(w *Window, traces []rawTrace, lay rawLayout) {
	w.XLabel, w.YLabel, w.Y2Label = lay.XAxis.title(), lay.YAxis.title(), lay.YAxis2.title()
	for _, t := range traces {
		n := t.X.len() + t.Y.len() + t.Z.len() + t.Labels.len() + t.Values.len()
		if !r.take(n, w.Offset, fmt.Sprintf("window %q", clip(w.ID))) {
			w.Cut = joinCut(w.Cut, "traces left out: the file's budget of numbers is spent")
			break
		}
		tr := Trace{Type: string(t.Type), Name: string(t.Name), Mode: string(t.Mode), RightAxis: t.YAxis == "y2",
			X: t.X.nums, Y: t.Y.nums, XNames: t.X.names, YNames: t.Y.names, Z: t.Z.nums,
			Rows: t.Z.rows, Cols: t.Z.cols, Labels: t.Labels.names, Values: t.Values.nums}
		if tr.Type == "" {
			tr.Type = "scatter" // Plotly's default
		}
		if len(t.Labels.nums) > 0 { // numeric pie labels
			for _, x := range t.Labels.nums {
				tr.Labels = append(tr.Labels, fmt.Sprint(x))
			}
		}
		w.Traces = append(w.Traces, tr)
	}
}

func joinCut(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// sortWindows orders an environment's windows as Visdom shows them: by
// creation order, then id.
func sortWindows(ws []*Window) {
	slices.SortStableFunc(ws, func(a, b *Window) int { return cmp.Or(cmp.Compare(a.order, b.order), cmp.Compare(a.ID, b.ID)) })
}

// clip shortens a name from the file for a message.
func clip(s string) string {
	const n = 80
	if len(s) <= n {
		return s
	}
	return truncUTF8(s, n) + "…"
}

// truncUTF8 cuts s to at most n bytes, at a character boundary.
func truncUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
