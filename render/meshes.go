package render

import (
	"fmt"
	"html/template"
	"strconv"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// The Meshes page (templates/meshes.html, assets/meshes.js) draws each
// mesh of result.Meshes in a card: its kept steps on a slider, each drawn
// by the page's own canvas renderer (flat-shaded triangles sorted by
// depth, or points), turned by dragging. A mesh's steps are in its data
// file, data/meshes/<run>/<name>.json, loaded when its card is drawn; the
// single file inlines them while the page's budget lasts.

// hasMeshes reports whether the report has a mesh to draw.
func (r *Report) hasMeshes() bool { return len(r.an.Meshes.Series) > 0 }

func countMeshes(r *Report, _ []model.Kind) countLine {
	c := countLine{Unit: "mesh"}
	runs := map[*model.Run]bool{}
	for _, s := range r.an.Meshes.Series {
		c.N++
		runs[s.Run] = true
	}
	c.Runs = len(runs)
	return c
}

func meshFileOf(s *result.MeshSeries) string { return dataFile("meshes", s.Run.Name, s.Name) }

type meshesPage struct {
	MaxVertices, MaxFaces string
	Cards                 []meshCard
	Index                 template.JS
	Data                  []embeddingInline // the single file's data, an element per mesh
}

type meshCard struct {
	Run, Name, Tags, Steps string
	I                      int // the mesh's place in the index
}

// meshIndexJSON is what the page's script knows of a mesh before its
// data: where the data is, and what each kept step holds.
type meshIndexJSON struct {
	Run    string          `json:"run"`
	Name   string          `json:"name"`
	Steps  []meshStepIndex `json:"steps"`
	File   string          `json:"file,omitempty"`
	Script string          `json:"script,omitempty"`
	Inline string          `json:"inline,omitempty"` // id of the element holding the data
	Note   string          `json:"note,omitempty"`   // why the data is not here
}

type meshStepIndex struct {
	Step     int64 `json:"step"`
	Vertices int   `json:"vertices"`
	Faces    int   `json:"faces"`
}

func (r *Report) meshesPage(single bool) (*meshesPage, error) {
	m := &r.an.Meshes
	p := &meshesPage{MaxVertices: result.FormatCount(m.MaxVertices), MaxFaces: result.FormatCount(m.MaxFaces)}
	room, err := r.pageRoom()
	if err != nil {
		return nil, err
	}
	var index []meshIndexJSON
	for i, s := range m.Series {
		ij := meshIndexJSON{Run: s.Run.Name, Name: s.Name}
		for _, st := range s.Steps {
			si := meshStepIndex{Step: st.Step}
			for _, it := range st.Items {
				si.Vertices += len(it.Vertices) / 3
				si.Faces += len(it.Faces) / 3
			}
			ij.Steps = append(ij.Steps, si)
		}
		steps := fmt.Sprintf("%s of %s", result.CountOf(len(s.Steps), "step", "steps"), result.FormatCount(s.Total))
		tags := ""
		for _, t := range s.Tags {
			if t != "" {
				tags += " " + t
			}
		}
		p.Cards = append(p.Cards, meshCard{Run: s.Run.Name, Name: s.Name, Tags: tags[min(1, len(tags)):], Steps: steps, I: i})
		if single {
			b := htmlSafe(meshFile(s))
			if len(b) > room {
				ij.Note = "This mesh's data is too big for the single file: the site's meshes.html draws it."
			} else {
				room -= len(b)
				ij.Inline = "mesh-data-" + strconv.Itoa(i)
				p.Data = append(p.Data, embeddingInline{ID: ij.Inline, Data: template.JS(b)})
			}
		} else {
			df := meshFileOf(s)
			ij.File, ij.Script = df, dataScriptFile(df)
		}
		index = append(index, ij)
	}
	p.Index, err = scriptJSON(index)
	return p, err
}

// meshFile is a mesh's data file:
//
//	{"run", "name", "tags": [vertex, face, colour], "total": N,
//	 "steps": [{"step", "wall_time", "note", "items": [{"vertices": [x, y, z, ...],
//	            "faces": [i, j, k, ...], "colors": [r, g, b, ...]}]}]}
//
// vertices as float32 in their shortest form (non-finite as strings, as
// every data file writes them), faces and colours as integers.
func meshFile(s *result.MeshSeries) []byte {
	b := append([]byte(nil), `{"run":`...)
	b = appendJSONString(b, s.Run.Name)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, s.Name)
	b = append(b, `,"tags":[`...)
	for i, t := range s.Tags {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, t)
	}
	b = append(b, `],"total":`...)
	b = strconv.AppendInt(b, int64(s.Total), 10)
	b = append(b, `,"steps":[`...)
	for i, st := range s.Steps {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"step":`...)
		b = strconv.AppendInt(b, st.Step, 10)
		b = append(b, `,"wall_time":`...)
		b = appendWallTime(b, st.WallTime)
		b = append(b, `,"note":`...)
		b = appendJSONString(b, st.Note)
		b = append(b, `,"items":[`...)
		for k, it := range st.Items {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"vertices":[`...)
			for j, v := range it.Vertices {
				if j > 0 {
					b = append(b, ',')
				}
				b = appendValue(b, float64(v), true)
			}
			b = append(b, `],"faces":[`...)
			for j, f := range it.Faces {
				if j > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(f), 10)
			}
			b = append(b, `],"colors":[`...)
			for j, c := range it.Colors {
				if j > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(c), 10)
			}
			b = append(b, "]}"...)
		}
		b = append(b, "]}"...)
	}
	return append(b, "]}\n"...)
}

// meshesData writes each mesh's data file and its script form.
func (r *Report) meshesData(emit func(file) error) (*pageData, error) {
	d := &pageData{category: "mesh", index: map[string]map[string]string{}}
	for _, s := range r.an.Meshes.Series {
		b := meshFile(s)
		df := meshFileOf(s)
		if err := emitWithTextScript(emit, df, b); err != nil {
			return nil, err
		}
		for _, st := range s.Steps {
			if st.Note != "" {
				d.note(s.Run.Name, s.Name, fmt.Errorf("step %d: %s", st.Step, st.Note))
			}
		}
		d.add(s.Run.Name, s.Name, df)
	}
	return d, nil
}
