package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

func runEmbeddings(run *model.Run) []*model.Embedding { return run.Embeddings }

// countEmbeddings counts, for the overview's list of pages, the (run,
// name) embeddings and the runs that have them.
func countEmbeddings(r *Report, _ []model.Kind) countLine {
	c := countLine{Unit: "embedding"}
	for _, run := range r.rep.Runs {
		if len(run.Embeddings) > 0 {
			c.Runs++
		}
	}
	c.N = len(r.an.Embeddings.Sets)
	return c
}

// embeddingFileOf is the data file of a (run, name), relative to data/.
func embeddingFileOf(set *result.EmbeddingSet) string {
	return dataFile("embeddings", set.Run.Name, set.Name)
}

// cmpInt64 orders steps (scalarsweep.go's runs; it stays here, where it
// was, since the embeddings' steps are ordered by the analysis now).
func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// embeddingsPage is what templates/embeddings.html draws: the list of
// embeddings, each with its data file or, in the single file, its data.
type embeddingsPage struct {
	Caps    string
	Methods string
	Index   template.JS
	Data    []embeddingInline // the single file's data, one element each
}

type embeddingInline struct {
	ID   string
	Data template.JS
}

// embeddingIndexJSON is one (run, name) of the page's list.
type embeddingIndexJSON struct {
	Run    string                 `json:"run"`
	Name   string                 `json:"name"`
	Steps  []embeddingStepSummary `json:"steps"`
	File   string                 `json:"file,omitempty"`
	Script string                 `json:"script,omitempty"`
	Inline string                 `json:"inline,omitempty"` // id of the element holding the data
}

type embeddingStepSummary struct {
	Step   int64   `json:"step"`
	Shape  []int64 `json:"shape"`
	Source string  `json:"source"`
}

func (r *Report) embeddingsPage(single bool) (*embeddingsPage, error) {
	e := &r.an.Embeddings
	p := &embeddingsPage{
		Caps: fmt.Sprintf("PCA %s, t-SNE %s, UMAP %s points; neighbour lists for %s", result.FormatCount(e.MaxPCA),
			result.FormatCount(e.MaxTSNE), result.FormatCount(e.MaxUMAP), result.FormatCount(e.MaxNeighbors)),
		Methods: strings.Join(e.Methods, ", "),
	}
	var index []embeddingIndexJSON
	for i, v := range e.Sets {
		ij := embeddingIndexJSON{Run: v.Run.Name, Name: v.Name}
		for _, s := range v.Steps {
			ij.Steps = append(ij.Steps, embeddingStepSummary{Step: s.Embedding.Step, Shape: s.Embedding.Shape, Source: s.Embedding.Source})
		}
		if single {
			b, err := r.embeddingFile(v, func(s *result.EmbeddingStep, j int) (string, error) {
				return mediaSrc(true, "", spriteMime(s.Embedding.Sprite), s.Embedding.Sprite.Data)
			})
			if err != nil {
				return nil, err
			}
			ij.Inline = "embedding-data-" + strconv.Itoa(i)
			p.Data = append(p.Data, embeddingInline{ID: ij.Inline, Data: template.JS(htmlSafe(b))})
		} else {
			df := embeddingFileOf(v)
			ij.File, ij.Script = df, dataScriptFile(df)
		}
		index = append(index, ij)
	}
	var err error
	p.Index, err = scriptJSON(index)
	return p, err
}

// htmlSafe escapes what could end a <script> element in JSON text, as
// encoding/json's HTML escaping does.
func htmlSafe(b []byte) []byte {
	var out bytes.Buffer
	json.HTMLEscape(&out, b)
	return out.Bytes()
}

func spriteMime(s *model.Sprite) string {
	if s == nil {
		return ""
	}
	_, mime := imageType(s.Format)
	return mime
}

// spriteFile names the sprite of the j-th step of v in the site.
func spriteFile(v *result.EmbeddingSet, j int, s *model.Sprite) string {
	ext, _ := imageType(s.Format)
	return mediaFile("embeddings", v.Run.Name, v.Name, "sprite", j, ext)
}

// embeddingsData writes each (run, name)'s data file, its script form,
// and the sprites.
func (r *Report) embeddingsData(emit func(file) error) (*pageData, error) {
	d := &pageData{category: "embedding", index: map[string]map[string]string{}}
	for _, v := range r.an.Embeddings.Sets {
		sprites := map[int]string{}
		for j, s := range v.Steps {
			e := s.Embedding
			if e.Sprite == nil {
				continue
			}
			name := spriteFile(v, j, e.Sprite)
			b, err := readBlob(e.Sprite.Data)
			if err != nil {
				d.note(v.Run.Name, v.Name, fmt.Errorf("step %d sprite: %w", e.Step, err))
				continue
			}
			if err := emit(file{name, b}); err != nil {
				return nil, err
			}
			sprites[j] = name
		}
		b, err := r.embeddingFile(v, func(_ *result.EmbeddingStep, j int) (string, error) {
			if name, ok := sprites[j]; ok {
				return name, nil
			}
			return "", fmt.Errorf("not written")
		})
		if err != nil {
			d.note(v.Run.Name, v.Name, fmt.Errorf("data file not written: %w", err))
			continue
		}
		for _, s := range v.Steps {
			if s.Err != nil {
				d.note(v.Run.Name, v.Name, fmt.Errorf("step %d: %w", s.Embedding.Step, s.Err))
			}
		}
		// The file is an object whose Tianshu part has the embedding's
		// name as a key, which in a script's object literal could be
		// "__proto__": its script form hands the text as a string.
		df := embeddingFileOf(v)
		if err := emitWithTextScript(emit, df, b); err != nil {
			return nil, err
		}
		d.add(v.Run.Name, v.Name, df)
	}
	return d, nil
}

// emitWithTextScript writes the JSON data file df (relative to data/) and
// its script form, which hands the same text to dataLoaded as a string, for
// the page to parse: a file whose keys come from the logs must not become a
// script's object literal, where "__proto__" sets the prototype.
func emitWithTextScript(emit func(file) error, df string, b []byte) error {
	if err := emit(file{"data/" + df, b}); err != nil {
		return err
	}
	script := dataScript(df, len(b)+len(b)/8, func(out []byte) []byte {
		q, _ := json.Marshal(string(b)) // a string always encodes
		return append(out, q...)
	})
	return emit(file{"data/" + dataScriptFile(df), script})
}
