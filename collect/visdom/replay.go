package visdom

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// maxTextLines is the server's default bound on the lines (separated by
// "<br>") that a text window keeps as it is appended to.
const maxTextLines = 1000

// maxMoved bounds the heat map cells that a file's column and prepended
// row updates may copy.
const maxMoved = 64 << 20

// message is the body of a client request, as a replay log holds it.
type message struct {
	Data      []json.RawMessage `json:"data"`
	Win       *flexString       `json:"win"`
	Eid       *flexString       `json:"eid"`
	Layout    json.RawMessage   `json:"layout"`
	Opts      map[string]json.RawMessage
	Name      *flexString `json:"name"`
	Append    bool        `json:"append"`
	Delete    bool        `json:"delete"`
	UpdateDir flexString  `json:"updateDir"`
}

// replayer is the state of a replay: the environments by name.
type replayer struct {
	*reader
	// moved counts the heat map cells that row and column updates have
	// copied, within maxMoved: a log of one-column appends to a big grid
	// would otherwise cost the square of its length.
	moved   int
	envs    map[string]map[string]*windowState
	line    int64 // offset of the line being replayed
	unnamed int
	skipped map[string]bool
	deep    bool // the line replayed had a value left out for its depth
}

// ReadLog replays a client replay log, data, the whole file, into the
// environments it builds, as the server would.
func ReadLog(data []byte) Result {
	rp := &replayer{reader: &reader{data: data}, envs: map[string]map[string]*windowState{}, skipped: map[string]bool{}}
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off
		}
		line := bytes.TrimSpace(data[off:end])
		rp.line = int64(off)
		off = end + 1
		if len(line) == 0 {
			continue
		}
		var entry []json.RawMessage
		_, deep, err := unmarshal(line, &entry)
		if err != nil || len(entry) != 2 {
			rp.res.Damaged = true
			rp.problem(rp.line, "not a replay log line [endpoint, message]")
			continue
		}
		var endpoint string
		var msg message
		if json.Unmarshal(entry[0], &endpoint) != nil || json.Unmarshal(entry[1], &msg) != nil {
			rp.res.Damaged = true
			rp.problem(rp.line, "not a replay log line [endpoint, message]")
			continue
		}
		if rp.deep = deep; deep {
			win := ""
			if msg.Win != nil {
				win = string(*msg.Win)
			}
			rp.problem(rp.line, "window %q: %s", clip(win), deepProblem)
		}
		rp.replay(endpoint, &msg)
	}
	for _, name := range slices.Sorted(maps.Keys(rp.envs)) {
		env := &Env{Name: name}
		for _, ws := range rp.envs[name] {
			env.Windows = append(env.Windows, rp.finish(ws))
		}
		sortWindows(env.Windows)
		rp.res.Envs = append(rp.res.Envs, env)
	}
	return rp.res
}

// eid is the server's extract_eid: "main" by default, path separators and
// line breaks replaced.
func eid(m *message) string {
	if m.Eid == nil || *m.Eid == "" {
		return "main"
	}
	return strings.NewReplacer("/", "_", `\`, "_", "\n", "-", "\r", "-").Replace(string(*m.Eid))
}

func (rp *replayer) replay(endpoint string, m *message) {
	switch endpoint {
	case "events":
		rp.create(m)
	case "update":
		rp.update(m)
	case "close":
		env := rp.envs[eid(m)]
		if m.Win == nil {
			clear(env)
		} else {
			delete(env, string(*m.Win))
		}
	case "delete_env":
		delete(rp.envs, eid(m))
	default:
		// Queries (win_exists, win_data, env_state) change nothing; saves
		// and forks act on the server's files, not on the log's windows.
		if !rp.skipped[endpoint] && len(rp.skipped) < 20 {
			rp.skipped[endpoint] = true
			rp.problem(rp.line, "endpoint %q not replayed", clip(endpoint))
		}
	}
}

// create is the server's window() and register_window(): a window made or
// replaced, keeping its place.
func (rp *replayer) create(m *message) {
	if len(m.Data) == 0 {
		rp.problem(rp.line, "a window without data")
		return
	}
	env := rp.envs[eid(m)]
	if env == nil {
		if len(rp.envs) >= maxWindows {
			rp.problem(rp.line, "environments beyond %d left out", maxWindows)
			return
		}
		env = map[string]*windowState{}
		rp.envs[eid(m)] = env
	}
	ws := &windowState{offset: rp.line, deep: rp.deep}
	if m.Win != nil && *m.Win != "" {
		ws.id = string(*m.Win)
	} else {
		rp.unnamed++
		ws.id = fmt.Sprintf("window_%d", rp.unnamed)
	}
	if t, ok := m.Opts["title"]; ok {
		var s flexString
		json.Unmarshal(t, &s)
		ws.title = string(s)
	}
	if old := env[ws.id]; old != nil {
		ws.order = old.order
	} else {
		if rp.windows >= maxWindows {
			rp.problem(rp.line, "windows beyond %d left out", maxWindows)
			return
		}
		rp.windows++
		ws.order = len(env)
		for _, w := range env {
			ws.order = max(ws.order, w.order+1)
		}
	}
	var first struct {
		Type    flexString      `json:"type"`
		Content json.RawMessage `json:"content"`
	}
	json.Unmarshal(m.Data[0], &first)
	switch typ := string(first.Type); {
	case first.Content != nil && slices.Contains(visdomTypes, typ):
		ws.typ = typ
		switch typ {
		case "text":
			var s flexString
			json.Unmarshal(first.Content, &s)
			ws.lines = strings.Split(string(s), "<br>")
		case "image_history", "plot_history":
			ws.items = []json.RawMessage{first.Content}
		default:
			ws.content = first.Content
		}
	default:
		ws.typ = "plot"
		ws.traces = rp.parseTraces(m.Data, ws, rp.line)
		json.Unmarshal(m.Layout, &ws.layout)
		if c, ok := m.Opts["caption"]; ok {
			var s flexString
			json.Unmarshal(c, &s)
			ws.caption = string(s)
		}
	}
	env[ws.id] = ws
}

// update is the server's UpdateHandler.
func (rp *replayer) update(m *message) {
	if m.Win == nil {
		rp.problem(rp.line, "an update without a window")
		return
	}
	ws := rp.envs[eid(m)][string(*m.Win)]
	if ws == nil {
		if m.Append { // appending to a missing window creates it
			rp.create(m)
		} else {
			rp.problem(rp.line, "an update of window %q, which does not exist", clip(string(*m.Win)))
		}
		return
	}
	switch ws.typ {
	case "text":
		if len(m.Data) == 0 {
			return
		}
		var d struct {
			Content flexString `json:"content"`
		}
		json.Unmarshal(m.Data[0], &d)
		// The server keeps the last maxTextLines lines; trimmed here now
		// and then, and at the end, which gives the same lines.
		ws.lines = append(ws.lines, strings.Split(string(d.Content), "<br>")...)
		ws.appended = true
		if len(ws.lines) > 2*maxTextLines {
			ws.lines = slices.Clone(ws.lines[len(ws.lines)-maxTextLines:])
		}
		return
	case "image_history", "plot_history":
		if len(m.Data) == 0 {
			return
		}
		var d struct {
			Type    flexString      `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		json.Unmarshal(m.Data[0], &d)
		if string(d.Type) == ws.typ {
			ws.items = append(ws.items, d.Content)
			if len(ws.items) > maxImages {
				ws.items = ws.items[len(ws.items)-maxImages:]
			}
		}
		return
	case "plot":
	default:
		return // the server updates no other window
	}
	if len(ws.traces) > 0 && !slices.Contains([]string{"scatter", "scatter3d", "scattergl", "custom", "heatmap", ""}, string(ws.traces[0].Type)) {
		rp.problem(rp.line, "an update of window %q, a %s plot, which the server refuses", clip(ws.id), clip(string(ws.traces[0].Type)))
		return
	}
	// update_window: layout and options.
	var lay rawLayout
	if json.Unmarshal(m.Layout, &lay) == nil {
		if lay.XAxis != nil {
			ws.layout.XAxis = lay.XAxis
		}
		if lay.YAxis != nil {
			ws.layout.YAxis = lay.YAxis
		}
		if lay.YAxis2 != nil {
			ws.layout.YAxis2 = lay.YAxis2
		}
	}
	if t, ok := m.Opts["title"]; ok {
		var s flexString
		if json.Unmarshal(t, &s) == nil && string(t) != "null" {
			ws.title = string(s)
		}
	}
	if m.Name == nil && m.Data == nil {
		return
	}
	news := rp.parseTraces(m.Data, ws, rp.line)
	var idxs []int
	for i, t := range ws.traces {
		if m.Name == nil || t.Name == *m.Name {
			idxs = append(idxs, i)
		}
	}
	if m.Delete {
		for i := len(idxs) - 1; i >= 0; i-- {
			ws.traces = slices.Delete(ws.traces, idxs[i], idxs[i]+1)
		}
		return
	}
	if len(news) == 0 {
		return
	}
	if len(idxs) == 1 && ws.traces[idxs[0]].Type == "heatmap" {
		rp.heatmap(&ws.traces[idxs[0]], news[0], string(m.UpdateDir))
		return
	}
	if len(idxs) == 0 { // a new trace
		if len(ws.traces) >= maxTraces {
			return
		}
		t := news[0]
		if m.Name != nil {
			t.Name = *m.Name
		}
		ws.traces = append(ws.traces, t)
		return
	}
	for n, i := range idxs {
		if n >= len(news) {
			break
		}
		nt := news[n]
		if allNull(nt.X) {
			continue
		}
		t := &ws.traces[i]
		if m.Append {
			t.X, t.Y = appendValues(t.X, nt.X), appendValues(t.Y, nt.Y)
			if t.Type == "scatter3d" {
				t.Z = appendValues(t.Z, nt.Z)
			}
		} else {
			t.X, t.Y = nt.X, nt.Y
			if t.Type == "scatter3d" {
				t.Z = nt.Z
			}
		}
		if t.X.len()+t.Y.len()+t.Z.len() > maxNumbers { // finish charges the budget; this bounds memory
			t.X, t.Y, t.Z = values{}, values{}, values{}
			ws.cut = joinCut(ws.cut, "a trace over the budget of numbers emptied")
		}
	}
}

// allNull reports whether x holds only null or non-finite numbers, which
// the server skips.
func allNull(x values) bool {
	if len(x.names) > 0 {
		return false
	}
	for _, v := range x.nums {
		if v == v && v-v == 0 {
			return false
		}
	}
	return true
}

// heatmap applies a heatmap update: rows or columns appended or prepended,
// or z replaced.
func (rp *replayer) heatmap(t *rawTrace, nt rawTrace, dir string) {
	z := nt.Z
	if dir != "appendRow" && dir != "replace" && dir != "" {
		if rp.moved += len(t.Z.nums) + len(z.nums); rp.moved > maxMoved {
			rp.problem(rp.line, "heat map update not replayed: the file's updates have moved more than %d cells", maxMoved)
			return
		}
	}
	switch dir {
	case "appendRow", "prependRow":
		if z.cols != t.Z.cols || z.rows == 0 {
			rp.problem(rp.line, "a heatmap update of %d columns to a heatmap of %d", z.cols, t.Z.cols)
			return
		}
		if dir == "appendRow" {
			t.Z.nums = append(t.Z.nums, z.nums...)
			if len(t.Y.names) > 0 {
				t.Y.names = slices.Concat(t.Y.names, nt.Y.names)
			}
		} else {
			t.Z.nums = slices.Concat(z.nums, t.Z.nums)
			if len(t.Y.names) > 0 {
				t.Y.names = slices.Concat(nt.Y.names, t.Y.names)
			}
		}
		t.Z.rows += z.rows
	case "appendColumn", "prependColumn":
		if z.rows != t.Z.rows || z.cols == 0 {
			rp.problem(rp.line, "a heatmap update of %d rows to a heatmap of %d", z.rows, t.Z.rows)
			return
		}
		cols := t.Z.cols + z.cols
		out := make([]float64, 0, t.Z.rows*cols)
		for i := range t.Z.rows {
			a, b := t.Z.nums[i*t.Z.cols:(i+1)*t.Z.cols], z.nums[i*z.cols:(i+1)*z.cols]
			if dir == "prependColumn" {
				a, b = b, a
			}
			out = append(append(out, a...), b...)
		}
		t.Z.nums, t.Z.cols = out, cols
		if len(t.X.names) > 0 {
			if dir == "appendColumn" {
				t.X.names = slices.Concat(t.X.names, nt.X.names)
			} else {
				t.X.names = slices.Concat(nt.X.names, t.X.names)
			}
		}
	default: // replace
		t.Z = z
		if nt.X.len() > 0 {
			t.X = nt.X
		}
		if nt.Y.len() > 0 {
			t.Y = nt.Y
		}
	}
}
