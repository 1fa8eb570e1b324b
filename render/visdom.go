package render

import (
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// visdomPageValues bounds the numbers the Visdom page inlines in all: a
// window past it is listed with a note and left to its data file.
const visdomPageValues = 3_000_000

// svgDocument makes an <svg> element written for an HTML page (where its
// namespace is implied, as Visdom's svg windows rely on) a document of its
// own, as an image must be.
func svgDocument(svg string) string {
	end := strings.IndexByte(svg, '>')
	if end < 0 || strings.Contains(svg[:end], "xmlns") {
		return svg
	}
	return `<svg xmlns="http://www.w3.org/2000/svg"` + svg[len("<svg"):]
}

// visdomSVGBytes bounds an SVG drawing the page inlines.
const visdomSVGBytes = 1 << 20

// visdomPage is what templates/visdom.html draws: per run and environment,
// every window in Visdom's order.
type visdomPage struct {
	Envs []visdomEnv
}

type visdomEnv struct {
	Run, Env string
	Windows  []visdomCard
}

// visdomCard is one window: a chart drawn by assets/visdom.js from Data,
// a table of properties, or a line saying where its data is shown (line
// traces on Scalars, images, text) or why it is not drawn.
type visdomCard struct {
	Tag, Title, ID, Type string
	Chart                bool
	Data                 template.JS
	Properties           []model.VisdomProperty
	// Image is the image an image window shows (the last of a history),
	// as the Images page has it.
	Image *visdomImage
	// SVG is an svg window's drawing as a data: URI, for an <img>, where
	// it runs no script and loads nothing.
	SVG template.URL
	// HTML is a text window's text, sanitised as on the Text page.
	HTML template.HTML
	// Elsewhere links the pages that also show the window's data.
	Elsewhere []visdomLink
	Notes     []string
}

type visdomImage struct {
	Src           template.URL // the site's media file, or a data: URI of checked image bytes
	Width, Height int
	Error         string
}

type visdomLink struct {
	Href, Title, Tag string
}

func runVisdom(run *model.Run) []*model.VisdomWindow { return run.Visdom }

// visdomWindowJSON is a window as the page and data/visdom/ hold it.
type visdomWindowJSON struct {
	ID         string                 `json:"id"`
	Title      string                 `json:"title"`
	Type       string                 `json:"type"`
	Tag        string                 `json:"tag"`
	XLabel     string                 `json:"xlabel,omitempty"`
	YLabel     string                 `json:"ylabel,omitempty"`
	Y2Label    string                 `json:"y2label,omitempty"`
	Caption    string                 `json:"caption,omitempty"`
	SVG        string                 `json:"svg,omitempty"`
	Traces     []visdomTraceJSON      `json:"traces,omitempty"`
	Properties []model.VisdomProperty `json:"properties,omitempty"`
	Images     int                    `json:"images,omitempty"`
	Nodes      int                    `json:"nodes,omitempty"`
	Edges      int                    `json:"edges,omitempty"`
	NodeLabels []string               `json:"node_labels,omitempty"`
	EdgeEnds   []int                  `json:"edge_ends,omitempty"`
	Notes      []string               `json:"notes,omitempty"`
}

type visdomTraceJSON struct {
	Type      string          `json:"type"`
	Name      string          `json:"name"`
	Mode      string          `json:"mode,omitempty"`
	X         json.RawMessage `json:"x,omitempty"`
	Y         json.RawMessage `json:"y,omitempty"`
	Z         json.RawMessage `json:"z,omitempty"`
	XNames    []string        `json:"x_names,omitempty"`
	YNames    []string        `json:"y_names,omitempty"`
	Rows      int             `json:"rows,omitempty"`
	Cols      int             `json:"cols,omitempty"`
	Labels    []string        `json:"labels,omitempty"`
	Values    json.RawMessage `json:"values,omitempty"`
	RightAxis bool            `json:"right_axis,omitempty"`
	ScalarTag string          `json:"scalar_tag,omitempty"`
}

func numbers(v []float64) json.RawMessage {
	if len(v) == 0 {
		return nil
	}
	return appendValues(nil, v, false)
}

func visdomJSON(w *model.VisdomWindow) visdomWindowJSON {
	out := visdomWindowJSON{ID: w.ID, Title: w.Title, Type: w.Type, Tag: w.Tag, XLabel: w.XLabel, YLabel: w.YLabel, Y2Label: w.Y2Label,
		Caption: w.Caption, SVG: w.SVG, Properties: w.Properties, Images: w.Images, Nodes: w.Nodes, Edges: w.Edges,
		NodeLabels: w.NodeLabels, EdgeEnds: w.EdgeEnds, Notes: w.Notes}
	for _, t := range w.Traces {
		out.Traces = append(out.Traces, visdomTraceJSON{Type: t.Type, Name: t.Name, Mode: t.Mode, X: numbers(t.X), Y: numbers(t.Y), Z: numbers(t.Z),
			XNames: t.XNames, YNames: t.YNames, Rows: t.Rows, Cols: t.Cols, Labels: t.Labels, Values: numbers(t.Values),
			RightAxis: t.RightAxis, ScalarTag: t.ScalarTag})
	}
	return out
}

// visdomValues counts the numbers and names a window inlines.
func visdomValues(w *model.VisdomWindow) int {
	n := len(w.NodeLabels) + len(w.EdgeEnds)
	for _, t := range w.Traces {
		n += len(t.X) + len(t.Y) + len(t.Z) + len(t.XNames) + len(t.YNames) + len(t.Labels) + len(t.Values)
	}
	return n
}

// visdomCharted are the window types the page draws as a chart.
var visdomCharted = map[string]bool{"plot": true, "plot_history": true, "network": true}

func (r *Report) visdomPage(single bool) (*visdomPage, error) {
	href := func(page string) string {
		if single {
			return "#page=" + page
		}
		return page + ".html"
	}
	p := &visdomPage{}
	left := visdomPageValues
	md := newMarkdown()
	type at struct{ run, tag string }
	images := map[at]func() *visdomImage{}
	for _, mt := range r.imageTags() {
		for k, ms := range mt.series {
			images[at{ms.run.Name, mt.tag}] = func() *visdomImage { return lastImage(mt, k, single) }
		}
	}
	for _, run := range r.rep.Runs {
		var env *visdomEnv
		for _, w := range run.Visdom {
			if env == nil || env.Env != w.Env {
				p.Envs = append(p.Envs, visdomEnv{Run: run.Name, Env: w.Env})
				env = &p.Envs[len(p.Envs)-1]
			}
			c := visdomCard{Tag: w.Tag, Title: w.Title, ID: w.ID, Type: w.Type, Properties: w.Properties, Notes: w.Notes}
			for _, t := range w.Traces {
				if t.ScalarTag != "" {
					c.Elsewhere = append(c.Elsewhere, visdomLink{href("scalars"), "Scalars", t.ScalarTag})
				}
			}
			switch {
			case w.Images > 0:
				c.Elsewhere = append(c.Elsewhere, visdomLink{href("images"), "Images", w.Tag})
				if img := images[at{run.Name, w.Tag}]; img != nil {
					c.Image = img()
				}
			case w.Type == "text" && visdomAudioOf(run, w.Tag):
				c.Elsewhere = append(c.Elsewhere, visdomLink{href("audio"), "Audio", w.Tag})
			case w.Type == "text":
				if t := visdomTextOf(run, w.Tag); t != nil {
					c.Elsewhere = append(c.Elsewhere, visdomLink{href("text"), "Text", w.Tag})
					c.HTML = md.sanitizeHTML(t.Entries[0].Values[0], newBudget(mdStepCells, mdStepBytes))
				}
			}
			if w.SVG != "" {
				if len(w.SVG) > visdomSVGBytes {
					c.Notes = append(c.Notes, fmt.Sprintf("SVG drawing of %s not shown: over %s; the data file holds it.", fmtBytes(len(w.SVG)), fmtBytes(visdomSVGBytes)))
				} else {
					// Base64 of the drawing: nothing in it can leave the attribute.
					c.SVG = template.URL(dataURI("image/svg+xml", []byte(svgDocument(w.SVG))))
				}
			}
			if visdomCharted[w.Type] && (len(w.Traces) > 0 || len(w.NodeLabels) > 0) {
				if n := visdomValues(w); n > left {
					c.Notes = append(c.Notes, fmt.Sprintf("Not drawn: this page already holds %s values, its budget; the data file holds the window.", result.FormatCount(visdomPageValues)))
				} else {
					left -= n
					js, err := scriptJSON(visdomJSON(w))
					if err != nil {
						c.Notes = append(c.Notes, "Not drawn: "+err.Error())
					} else {
						c.Chart, c.Data = true, js
					}
				}
			}
			env.Windows = append(env.Windows, c)
		}
	}
	return p, nil
}

// lastImage is the last kept image of a tag's series k, which the Images
// page writes (or inlines in the single file).
func lastImage(mt *mediaTag[*model.Image], k int, single bool) *visdomImage {
	kept := keptImages(mt, k)
	if len(kept) == 0 || len(kept[len(kept)-1].Images) == 0 {
		return nil
	}
	e := kept[len(kept)-1]
	it := e.Images[0]
	_, mime := imageType(it.Format)
	img := &visdomImage{Width: it.Width, Height: it.Height}
	src, err := "", checkBlob(it.Data)
	if err == nil {
		src, err = mediaSrc(single, e.names[0], mime, it.Data)
	}
	if err != nil {
		img.Error = "image not shown: " + err.Error()
		return img
	}
	// A path of slugs in the site, or a data: URI of bytes checked to be
	// a PNG, JPEG or GIF when read: nothing a log names.
	img.Src = template.URL(src)
	return img
}

// visdomAudioOf reports whether the run has an audio series of tag: the
// clips of a Visdom audio window.
func visdomAudioOf(run *model.Run, tag string) bool {
	return slices.ContainsFunc(run.Audio, func(a *model.Audio) bool { return a.Tag == tag })
}

// visdomTextOf is the run's text series of tag, one Visdom text window's.
func visdomTextOf(run *model.Run, tag string) *model.Text {
	for _, t := range run.Texts {
		if t.Tag == tag && t.Plugin == "visdom" && len(t.Entries) > 0 && len(t.Entries[0].Values) > 0 {
			return t
		}
	}
	return nil
}

// visdomData writes one data file per run and environment,
// data/visdom/<run>/<env>.json: {env: [window, ...]} in Visdom's order.
func (r *Report) visdomData(emit func(file) error) (*pageData, error) {
	d := &pageData{category: "visdom", index: map[string]map[string]string{}}
	for _, run := range r.rep.Runs {
		var env string
		var ws []visdomWindowJSON
		flush := func() error {
			if len(ws) == 0 {
				return nil
			}
			err := emitTagFile(d, emit, run.Name, env, dataFile("visdom", run.Name, env), ws)
			ws = nil
			return err
		}
		for _, w := range run.Visdom {
			if w.Env != env {
				if err := flush(); err != nil {
					return nil, err
				}
				env = w.Env
			}
			ws = append(ws, visdomJSON(w))
		}
		if err := flush(); err != nil {
			return nil, err
		}
	}
	return d, nil
}
