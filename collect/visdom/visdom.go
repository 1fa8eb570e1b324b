// Package visdom reads Visdom's saved environments (<env>.json, written by
// the Visdom server under its env_path) and its client replay logs (written
// with log_to_filename), docs/FORMATS.md section 22, into windows: the
// Plotly traces of plot windows reduced to numbers and names, the images of
// image windows located in the file (not decoded into memory), text, and
// properties. A replay log is replayed as the server would: "events"
// creates or replaces a window, "update" appends to it (or replaces, per
// its arguments), "close" deletes one.
//
// Everything a file claims is bounded: its size, its windows, the traces
// of a window, the numbers of a file, the padding of a ragged grid and the
// bytes of an image, so that a small hostile file costs little; what is
// cut is said in a Problem. Python's NaN, Infinity and -Infinity, which
// its json module writes though they are not JSON, are read as Python
// reads them (json.go).
package visdom

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// Bounds on what one file may cost.
const (
	// MaxFileBytes bounds a file read whole: saved environments are one
	// JSON document (their images inline, as base64).
	MaxFileBytes = 256 << 20
	// maxWindows bounds the windows of a file, over its environments.
	maxWindows = 10_000
	// maxTraces bounds the traces of a plot window.
	maxTraces = 1_000
	// maxNumbers bounds the numbers kept from a file, over its traces.
	maxNumbers = 16 << 20
	// maxImageBytes bounds a decoded image (its base64 is a third more).
	maxImageBytes = 64 << 20
	// maxImages bounds the images of an image_history window.
	maxImages = 1_000
	// maxTextBytes bounds a text window's HTML.
	maxTextBytes = 4 << 20
	// maxProperties bounds the rows of a properties window.
	maxProperties = 10_000
	// maxNodes bounds the nodes of a network window kept.
	maxNodes = 10_000
	// maxProblems bounds the problems listed for one file.
	maxProblems = 50
)

// Env is one Visdom environment: its windows in creation order.
type Env struct {
	Name    string
	Windows []*Window
}

// Window is one Visdom window ("pane").
type Window struct {
	ID    string
	Title string
	// Type is Visdom's: "plot", "image", "image_history", "text",
	// "properties", "network", "embeddings", "plot_history", or what a
	// later Visdom writes, kept as is.
	Type string
	// Offset is where the window was last created in a replay log (the
	// start of its line); 0 in a saved environment, one document.
	Offset int64
	// Plot windows: the traces, and the axis titles of the layout.
	Traces                  []Trace
	XLabel, YLabel, Y2Label string
	// Image windows: one image; image_history windows: each kept.
	Images []Image
	// Text windows: the HTML (text, svg, audio and video all arrive as text).
	Text string
	// Clips are the audio clips a text window's HTML embeds as data URIs
	// (Visdom's audio windows).
	Clips []Clip
	// Properties windows: each row.
	Properties []Property
	// Network windows: the number of nodes and edges, each node's label
	// and each edge's ends (indices into NodeLabels, two an edge).
	Nodes, Edges int
	NodeLabels   []string
	EdgeEnds     []int
	// Caption is the caption of a plot or image.
	Caption string
	// Cut says what of the window was left out by a bound, "" when nothing.
	Cut string

	order int  // creation order in its environment (the server's "i")
	deep  bool // a value was left out for its depth (windowProblem)
}

// Trace is a Plotly trace reduced to its data.
type Trace struct {
	// Type is Plotly's: "scatter", "bar", "heatmap", "box", "surface",
	// "contour", "pie", "mesh3d", "scatter3d", ...
	Type string
	Name string
	Mode string // of scatter traces: "lines", "markers", "lines+markers"
	// X, Y and Z hold numbers, NaN where Visdom wrote null (its NaN and
	// infinities, and the breaks between segments of stem and quiver
	// plots) or NaN, ±Inf where it wrote Infinity and -Infinity. XNames and YNames hold x or y when they are names (bar and
	// heatmap labels) instead.
	X, Y, Z        []float64
	XNames, YNames []string
	// Rows and Cols give the shape of a grid z (heatmap, surface,
	// contour), row-major in Z; 0 when z is a list.
	Rows, Cols int
	// Labels and Values are a pie's.
	Labels []string
	Values []float64
	// RightAxis is set for a trace on the second y axis (yaxis "y2").
	RightAxis bool
}

// Image is an image of a window, located in the file as base64 text; it
// is checked to be a PNG, JPEG or GIF when the file is read.
type Image struct {
	// Offset and Length locate the base64 text in the file.
	Offset, Length int64
	Format         string // "png", "jpeg" or "gif"
	Width, Height  int
	Caption        string
}

// Clip is an audio clip embedded in a text window, located in the file
// as base64 text.
type Clip struct {
	Offset, Length int64
	MIME           string // the data URI's: "audio/wav", "audio/mpeg", ...
	// Head is the start of the decoded clip (at most ClipHeadBytes), enough
	// for a WAV file's header.
	Head []byte
}

// ClipHeadBytes is how much of a clip Clip.Head holds.
const ClipHeadBytes = 4096

// maxClips bounds the clips read from one text window.
const maxClips = 100

// Property is a row of a properties window.
type Property struct {
	Type, Name, Value string
}

// Problem is a problem with the file, at a byte offset.
type Problem struct {
	Offset int64
	Msg    string
}

// Result is what a file held.
type Result struct {
	Envs     []*Env
	Problems []Problem
	// Damaged is set when part of the file could not be read.
	Damaged bool
}

// reader holds the state of one file's reading.
type reader struct {
	data     []byte
	res      Result
	numbers  int // kept so far, of maxNumbers
	windows  int
	images   imageIndex
	numbered bool // the numbers budget was reported
}

func (r *reader) problem(off int64, format string, args ...any) {
	if len(r.res.Problems) == maxProblems {
		r.res.Problems = append(r.res.Problems, Problem{off, "more problems not listed"})
	}
	if len(r.res.Problems) >= maxProblems {
		return
	}
	r.res.Problems = append(r.res.Problems, Problem{off, fmt.Sprintf(format, args...)})
}

// Kind is what a file is, by its first bytes.
type Kind int

// The kinds of Visdom file.
const (
	NotVisdom Kind = iota
	// EnvFile is a saved environment: a JSON object whose first key is
	// "jsons" or "reload".
	EnvFile
	// LogFile is a replay log: lines of JSON arrays [endpoint, message].
	LogFile
)

// SniffBytes is how much of a file Sniff needs.
const SniffBytes = 64

// endpoints are the client endpoints a replay log's lines start with.
var endpoints = []string{"events", "update", "close", "delete_env", "save", "win_exists", "win_data", "env_state", "fork_env"}

// Sniff tells a Visdom file from its first bytes (at least SniffBytes when
// the file is that long), so that other JSON is not mistaken for one.
func Sniff(head []byte) Kind {
	s := bytes.TrimLeft(head, " \t\r\n")
	switch {
	case bytes.HasPrefix(s, []byte("{")):
		s = bytes.TrimLeft(s[1:], " \t\r\n")
		if bytes.HasPrefix(s, []byte(`"jsons"`)) || bytes.HasPrefix(s, []byte(`"reload"`)) {
			return EnvFile
		}
	case bytes.HasPrefix(s, []byte("[")):
		s = bytes.TrimLeft(s[1:], " \t\r\n")
		for _, e := range endpoints {
			if rest, ok := bytes.CutPrefix(s, []byte(`"`+e+`"`)); ok {
				if rest = bytes.TrimLeft(rest, " \t"); len(rest) > 0 && rest[0] == ',' {
					return LogFile
				}
			}
		}
	}
	return NotVisdom
}

// take charges n numbers to the file's budget and reports whether they fit.
func (r *reader) take(n int, off int64, what string) bool {
	if r.numbers+n > maxNumbers {
		if !r.numbered {
			r.numbered = true
			r.problem(off, "%s and later data left out: the file holds more than %d numbers", what, maxNumbers)
		}
		return false
	}
	r.numbers += n
	return true
}

// flexString is a JSON string, number or boolean read as a string (trace
// names and property values are either); Python's NaN, Infinity and
// -Infinity are read as those words.
type flexString string

func (f *flexString) UnmarshalJSON(b []byte) error {
	if s, ok := markString(b); ok { // Python's NaN, Infinity, -Infinity
		*f = flexString(s)
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*f = flexString(s)
		return nil
	}
	if string(b) == "null" {
		*f = ""
		return nil
	}
	if x, ok := number(b); ok && len(b) > 0 && (b[0] == '-' || '0' <= b[0] && b[0] <= '9') {
		*f = flexString(strconv.FormatFloat(x, 'g', -1, 64))
		return nil
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch v := v.(type) {
	case bool:
		*f = flexString(strconv.FormatBool(v))
	default:
		*f = flexString(bytes.TrimSpace(b))
	}
	return nil
}

// values is Plotly's x, y or z as read (decodeValues): numbers (NaN where
// the file wrote null), names, or a grid's numbers row-major.
type values struct {
	nums       []float64
	names      []string
	rows, cols int // of a grid
	bad        bool
}

func (v values) len() int { return len(v.nums) + len(v.names) }

// appendValues appends b to a, as Visdom's update does for x, y and z.
func appendValues(a, b values) values {
	switch {
	case a.len() == 0:
		return b
	case len(a.names) > 0 || len(b.names) > 0:
		out := values{names: append(a.names, b.names...)}
		for _, x := range slices.Concat(a.nums, b.nums) {
			out.names = append(out.names, strconv.FormatFloat(x, 'g', -1, 64))
		}
		return out
	}
	// In place: a trace's slices are its own, so a log of a million
	// one-point appends costs amortised constant time each.
	return values{nums: append(a.nums, b.nums...)}
}

// traceJSON is a Plotly trace as Visdom writes it; its arrays are read by
// (*reader).values, within the file's bounds.
type traceJSON struct {
	Type   flexString      `json:"type"`
	Name   flexString      `json:"name"`
	Mode   flexString      `json:"mode"`
	X      json.RawMessage `json:"x"`
	Y      json.RawMessage `json:"y"`
	Z      json.RawMessage `json:"z"`
	Labels json.RawMessage `json:"labels"`
	Values json.RawMessage `json:"values"`
	YAxis  flexString      `json:"yaxis"`
}

// rawTrace is a Plotly trace with its arrays read.
type rawTrace struct {
	Type, Name, Mode, YAxis flexString
	X, Y, Z, Labels, Values values
}

type rawAxis struct {
	Title json.RawMessage `json:"title"`
}

// title reads an axis title: a string, or Plotly's {"text": ...}.
func (a *rawAxis) title() string {
	if a == nil || len(a.Title) == 0 {
		return ""
	}
	var s flexString
	if json.Unmarshal(a.Title, &s) == nil && !bytes.HasPrefix(bytes.TrimSpace(a.Title), []byte("{")) {
		return string(s)
	}
	var t struct {
		Text flexString `json:"text"`
	}
	json.Unmarshal(a.Title, &t)
	return string(t.Text)
}

type rawLayout struct {
	Title  json.RawMessage `json:"title"`
	XAxis  *rawAxis        `json:"xaxis"`
	YAxis  *rawAxis        `json:"yaxis"`
	YAxis2 *rawAxis        `json:"yaxis2"`
}

type rawPlot struct {
	Data    []json.RawMessage `json:"data"`
	Layout  *rawLayout        `json:"layout"`
	Caption flexString        `json:"caption"`
}

// rawWindow is a window of a saved environment.
type rawWindow struct {
	ID      flexString      `json:"id"`
	Title   flexString      `json:"title"`
	Type    flexString      `json:"type"`
	I       json.RawMessage `json:"i"`
	Content json.RawMessage `json:"content"`
}
