package render

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"slices"
	"strconv"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// mediaSeries is one (run, tag) series of images or clips, with the steps
// kept for the report.
type mediaSeries struct {
	run   *model.Run
	keep  []int   // indices of the kept entries
	steps []int64 // of every entry in the logs
	// names are the kept entries' file stems, "<step>" or, for a step seen
	// again, "<step>_<k>".
	names []string
}

// newMediaSeries is the series of run of the given steps, keeping the
// entries of indices keep.
func newMediaSeries(run *model.Run, steps []int64, keep []int) *mediaSeries {
	ms := &mediaSeries{run: run, keep: keep, steps: steps}
	seen := map[int64]int{}
	for _, i := range ms.keep {
		s := steps[i]
		name := strconv.FormatInt(s, 10)
		if k := seen[s]; k > 0 {
			name += "_" + strconv.Itoa(k)
		}
		seen[s]++
		ms.names = append(ms.names, name)
	}
	return ms
}

// mediaTag is one tag across the runs that have it.
type mediaTag[T any] struct {
	tag    string
	series []*mediaSeries
	data   []T // the tag's series of each run, in run order
}

// groupMedia gathers the series of one kind by tag (see byTag), with the
// steps each keeps: those of the analysis (result.Media.Keep).
func groupMedia[T any](runs []*model.Run, m *result.Media, of func(*model.Run) []T, tag func(T) string, steps func(T) []int64) []*mediaTag[T] {
	var tags []*mediaTag[T]
	for _, ts := range byTag(runs, of, tag) {
		mt := &mediaTag[T]{tag: ts.tag}
		for _, rs := range ts.runs {
			st := steps(rs.series)
			mt.series = append(mt.series, newMediaSeries(rs.run, st, m.Keep(len(st))))
			mt.data = append(mt.data, rs.series)
		}
		tags = append(tags, mt)
	}
	return tags
}

// entrySteps lists the steps of a series' entries, in their order.
func entrySteps[E any](entries []E, step func(E) int64) []int64 {
	steps := make([]int64, len(entries))
	for i, e := range entries {
		steps[i] = step(e)
	}
	return steps
}

// mediaFile names a media file of the site: media/<kind>/<run slug>/<tag
// slug>/<stem>-<i>.<ext>. Only slugs and numbers: it never leaves the
// output directory.
func mediaFile(kind, run, tag, stem string, i int, ext string) string {
	return fmt.Sprintf("media/%s/%s/%s/%s-%d.%s", kind, slug(run), slug(tag), stem, i, ext)
}

// mediaSrc returns what a page's <img> or <audio> loads: the file's path
// in the site, or the bytes as a data: URI in the single file.
func mediaSrc(single bool, name, mime string, ref model.BlobRef) (string, error) {
	if !single {
		return name, nil
	}
	b, err := ref.Read()
	if err != nil {
		return "", err
	}
	return dataURI(mime, b), nil
}

func dataURI(mime string, b []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(b)
}

// tagStepsLabel says how many distinct steps a tag shows of how many the
// logs hold, over its runs.
func tagStepsLabel(series []*mediaSeries) string {
	var keptSteps, allSteps [][]int64
	for _, s := range series {
		k := make([]int64, len(s.keep))
		for j, i := range s.keep {
			k[j] = s.steps[i]
		}
		keptSteps, allSteps = append(keptSteps, k), append(allSteps, s.steps)
	}
	return stepsLabel(len(unionSteps(keptSteps)), len(unionSteps(allSteps)))
}

// unionSteps is the sorted distinct steps of a tag's kept entries: the
// stops of its step slider.
func unionSteps(steps [][]int64) []int64 {
	var all []int64
	for _, s := range steps {
		all = append(all, s...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// sliderStops counts the stops of a tag's step slider (assets/media.js,
// stopsOf): each distinct step of its runs' kept entries as many times as
// one run writes it, so that a step written by two attempts (or rewritten)
// is two stops, each showing one write.
func sliderStops(steps [][]int64) int {
	most := map[int64]int{}
	for _, s := range steps {
		count := map[int64]int{}
		for _, st := range s {
			count[st]++
			most[st] = max(most[st], count[st])
		}
	}
	n := 0
	for _, c := range most {
		n += c
	}
	return n
}

// mediaTagView is what the media templates draw per tag.
type mediaTagView struct {
	Tag   string
	Steps string // "10 steps", "100 of 188 steps"
	Stops int    // the step slider's last index
	Data  template.JS
	Note  string // why the tag shows nothing, when its data cannot be encoded
	cutSection
}

// mediaTagViewOf is what a media page draws of a tag, with data as its
// inline data; data that cannot be encoded becomes the tag's note.
func mediaTagViewOf(tag, steps string, stops int, data any) mediaTagView {
	v := mediaTagView{Tag: tag, Steps: steps, Stops: stops, Data: "null"}
	js, err := scriptJSON(data)
	if err != nil {
		v.Note = "This tag cannot be shown: " + err.Error()
		return v
	}
	v.Data = js
	return v
}

// mediaSections returns the cut sections of a media page's tags.
func mediaSections(tags []mediaTagView) []*cutSection {
	secs := make([]*cutSection, len(tags))
	for i := range tags {
		secs[i] = &tags[i].cutSection
	}
	return secs
}
