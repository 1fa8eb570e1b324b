package render

import (
	"fmt"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/summary"
)

// imagesPage is what templates/images.html draws.
type imagesPage struct {
	Budget int
	Tags   []mediaTagView
}

func (p *imagesPage) cutSections() (string, []*cutSection) { return "", mediaSections(p.Tags) }

// imageEntry is an image step in a data file (data/images/<run>/<tag>.json):
// the Tianshu fields of the first image, then every image of the step (a
// batch holds several). File paths are relative to the site's root.
type imageEntry struct {
	WallTime summary.Float `json:"wall_time"`
	Step     int64         `json:"step"`
	Width    int           `json:"width"`
	Height   int           `json:"height"`
	Format   string        `json:"format"`
	File     string        `json:"file"`
	Images   []imageJSON   `json:"images"`
	entryWrite
}

type imageJSON struct {
	File   string `json:"file"`   // "" when the image could not be written
	Format string `json:"format"` // "png", "jpeg", "gif", or "" when unknown
	Width  int    `json:"width"`
	Height int    `json:"height"`
	// Error says why the image has no file: its bytes could not be read
	// from the log, or there are none.
	Error string `json:"error,omitempty"`
}

// imageTagJSON is the inline data of one tag that assets/images.js draws:
// the slider's steps, and per run its kept entries with each image's src
// (a file of the site, or a data: URI in the single file).
type imageTagJSON struct {
	Tag   string         `json:"tag"`
	Steps []int64        `json:"steps"`
	Runs  []imageRunJSON `json:"runs"`
}

type imageRunJSON struct {
	Name    string          `json:"name"`
	Kept    int             `json:"kept"`
	Total   int             `json:"total"`
	Entries []imageStepJSON `json:"entries"`
}

type imageStepJSON struct {
	Step     int64          `json:"step"`
	WallTime summary.Float  `json:"wall_time"`
	Images   []imageSrcJSON `json:"images"`
	entryWrite
}

type imageSrcJSON struct {
	Src    string `json:"src"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Format string `json:"format"`
	// Error, when set, is shown instead of the image (and Src is "").
	Error string `json:"error,omitempty"`
}

func runImages(run *model.Run) []*model.Image {
	return withEntries(run.Images, func(im *model.Image) int { return len(im.Entries) })
}

func (r *Report) imageTags() []*mediaTag[*model.Image] {
	return groupMedia(r.rep.Runs, &r.an.Media, runImages,
		func(im *model.Image) string { return im.Tag },
		func(im *model.Image) []int64 {
			return entrySteps(im.Entries, func(e model.ImageEntry) int64 { return e.Step })
		})
}

// imageFormats maps an image format to its file extension and MIME type.
var imageFormats = map[string][2]string{
	"png": {"png", "image/png"}, "jpeg": {"jpg", "image/jpeg"}, "gif": {"gif", "image/gif"},
}

func imageType(format string) (ext, mime string) {
	if t, ok := imageFormats[format]; ok {
		return t[0], t[1]
	}
	return "bin", "application/octet-stream" // the browser sniffs what it can
}

// keptImages returns the kept steps of a tag's series k, each with the
// file names of its images in the site.
func keptImages(mt *mediaTag[*model.Image], k int) []keptImage {
	ms, im := mt.series[k], mt.data[k]
	out := make([]keptImage, len(ms.keep))
	for j, idx := range ms.keep {
		e := im.Entries[idx]
		out[j].ImageEntry = e
		for i, it := range e.Images {
			ext, _ := imageType(it.Format)
			out[j].names = append(out[j].names, mediaFile("images", ms.run.Name, mt.tag, ms.names[j], i, ext))
		}
	}
	return out
}

type keptImage struct {
	model.ImageEntry
	names []string // of Images[i] in the site
}

func (r *Report) imagesPage(single bool) (*imagesPage, error) {
	p := &imagesPage{Budget: r.an.Media.Steps}
	mts := r.imageTags()
	runs := make([][]imageRunJSON, len(mts))
	steps := make([][][]int64, len(mts))
	for t, mt := range mts {
		for k, ms := range mt.series {
			rj := imageRunJSON{Name: ms.run.Name, Kept: len(ms.keep), Total: len(ms.steps), Entries: []imageStepJSON{}}
			var runSteps []int64
			for _, e := range keptImages(mt, k) {
				sj := imageStepJSON{Step: e.Step, WallTime: summary.Float(e.WallTime), Images: []imageSrcJSON{}, entryWrite: entryWriteOf(ms.run, e.Written)}
				for i, it := range e.Images {
					_, mime := imageType(it.Format)
					im := imageSrcJSON{Width: it.Width, Height: it.Height, Format: it.Format}
					src, err := "", checkBlob(it.Data)
					if err == nil {
						src, err = imageSrc(single, e.names[i], mime, it)
					}
					if err != nil {
						im.Error = "image not shown: " + err.Error()
					}
					im.Src = src
					sj.Images = append(sj.Images, im)
				}
				rj.Entries = append(rj.Entries, sj)
				runSteps = append(runSteps, e.Step)
			}
			steps[t] = append(steps[t], runSteps)
			runs[t] = append(runs[t], rj)
		}
	}
	tags, err := cutMediaTags(r, mts, runs, steps, "images", single, func(rj imageRunJSON) string { return rj.Name }, func(tag string, runs []imageRunJSON, steps []int64) any {
		return imageTagJSON{Tag: tag, Runs: runs, Steps: steps}
	})
	if err != nil {
		return nil, err
	}
	p.Tags = tags
	return p, nil
}

// imagesData returns the images' data files and the image files of the
// site, byte for byte as the logs hold them (pixel values, TS-VIS's
// feature maps, encoded as PNG).
func (r *Report) imagesData(emit func(file) error) (*pageData, error) {
	d := &pageData{category: "image", section: "media", index: map[string]map[string]string{}}
	for _, mt := range r.imageTags() {
		for k, ms := range mt.series {
			var entries []imageEntry
			for _, e := range keptImages(mt, k) {
				ej := imageEntry{WallTime: summary.Float(e.WallTime), Step: e.Step, Images: []imageJSON{}, entryWrite: entryWriteOf(ms.run, e.Written)}
				for i, it := range e.Images {
					ij := imageJSON{File: e.names[i], Format: it.Format, Width: it.Width, Height: it.Height}
					if b, err := imageBytes(it); err != nil {
						ij.File, ij.Error = "", fmt.Sprintf("step %d image %d: %v", e.Step, i, err)
					} else if err := emit(file{e.names[i], b}); err != nil {
						return nil, err
					}
					if i == 0 {
						ej.Width, ej.Height, ej.Format, ej.File = it.Width, it.Height, it.Format, ij.File
					}
					ej.Images = append(ej.Images, ij)
				}
				entries = append(entries, ej)
			}
			name := dataFile("images", ms.run.Name, mt.tag)
			if err := emitTagFile(d, emit, ms.run.Name, mt.tag, name, entries); err != nil {
				return nil, err
			}
		}
	}
	return d, nil
}
