package render

import (
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/downsample"
	"github.com/trainreport/trainreport/collect/model"
)

// fadedView is the superseded points of one attempt of a series (see
// model.Superseded): drawn faded behind the run's line, and kept in the
// series' superseded data file.
type fadedView struct {
	sp   *model.Superseded
	draw []int // indices of the points drawn
	data []int // indices of the points in the data file
}

// fadedViews prepares the superseded points of a series under the budgets
// of its line: each attempt's points are a series of their own, drawing at
// most drawCap points and keeping at most dataCap (0: all) in the data,
// downsampled keeping extremes.
func fadedViews(s *model.Scalar, drawCap, dataCap int) []fadedView {
	var out []fadedView
	for i := range s.Superseded {
		sp := &s.Superseded[i]
		draw, _ := downsample.Points(sp.Points, drawCap)
		data, _ := downsample.Points(sp.Points, dataCap)
		out = append(out, fadedView{sp: sp, draw: draw, data: data})
	}
	return out
}

// supersededLengths returns the lengths of the superseded series of s, for
// the page's budget of points.
func supersededLengths(s *model.Scalar) []int {
	var out []int
	for _, sp := range s.Superseded {
		out = append(out, len(sp.Points))
	}
	return out
}

// appendSuperseded appends to a run's chart data, when its series has
// superseded points, the field the page draws them from (see
// assets/scalars.js, supersededSeries): per attempt, its number, its
// number of points and the drawn ones, [step, value, wall_time] each.
func appendSuperseded(b []byte, sv *seriesView) []byte {
	if len(sv.faded) == 0 {
		return b
	}
	b = append(b, `,"superseded":[`...)
	for i, fv := range sv.faded {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"attempt":`...)
		b = strconv.AppendInt(b, int64(fv.sp.Attempt), 10)
		b = append(b, `,"total":`...)
		b = strconv.AppendInt(b, int64(len(fv.sp.Points)), 10)
		b = append(b, `,"points":[`...)
		for j, idx := range fv.draw {
			p := fv.sp.Points[idx]
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = strconv.AppendInt(b, p.Step, 10)
			b = append(b, ',')
			b = appendValue(b, p.Value, sv.scalar.Float32)
			b = append(b, ',')
			b = appendWallTime(b, p.WallTime)
			b = append(b, ']')
		}
		b = append(b, "]}"...)
	}
	return append(b, ']')
}

// supersededFile is the data file of a series' superseded points, beside
// its line's: "<name>.superseded.json". No line's file ends so, since a
// slug ends with its hash.
func supersededFile(lineFile string) string {
	return strings.TrimSuffix(lineFile, ".json") + ".superseded.json"
}

// emitSuperseded writes the superseded data file of every series that
// has one, and lists it in d.
func emitSuperseded(d *pageData, tags []*tagView, emit func(file) error) error {
	for _, tv := range tags {
		for _, sv := range tv.series {
			if len(sv.faded) == 0 {
				continue
			}
			name := supersededFile(sv.file)
			d.addSuperseded(sv.run.Name, tv.tag, name)
			if err := emit(file{"data/" + name, supersededData(sv)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// supersededData encodes a series' superseded data file: the tag, and per
// attempt its number, how many points it has and the kept ones, [wall,
// step, value] each as in the line's file, in step order. The tag is a
// value, not a key, so that no tag can collide with the file's keys.
func supersededData(sv *seriesView) []byte {
	b := append([]byte(nil), `{"tag":`...)
	b = appendJSONString(b, sv.scalar.Tag)
	b = append(b, `,"attempts":[`...)
	for i, fv := range sv.faded {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n{\"attempt\":"...)
		b = strconv.AppendInt(b, int64(fv.sp.Attempt), 10)
		b = append(b, `,"total":`...)
		b = strconv.AppendInt(b, int64(len(fv.sp.Points)), 10)
		b = append(b, `,"points":[`...)
		for j, idx := range fv.data {
			p := fv.sp.Points[idx]
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n["...)
			b = appendWallTime(b, p.WallTime)
			b = append(b, ',')
			b = strconv.AppendInt(b, p.Step, 10)
			b = append(b, ',')
			b = appendValue(b, p.Value, sv.scalar.Float32)
			b = append(b, ']')
		}
		b = append(b, "\n]}"...)
	}
	return append(b, "\n]}\n"...)
}

// summaryAttempt is an attempt of a run in summary.json.
type summaryAttempt struct {
	Attempt    int      `json:"attempt"`
	Files      []string `json:"files"`
	FirstStep  int64    `json:"first_step"`
	LastStep   int64    `json:"last_step"`
	Points     int      `json:"points"`
	Superseded int      `json:"superseded_points"`
}

// attemptsJSON returns a run's attempts for summary.json, nil when it had
// no restart.
func attemptsJSON(run *model.Run) []summaryAttempt {
	var out []summaryAttempt
	for k, a := range run.Attempts {
		out = append(out, summaryAttempt{Attempt: k + 1, Files: append([]string{}, a.Files...), FirstStep: a.FirstStep,
			LastStep: a.LastStep, Points: a.Points, Superseded: a.Superseded})
	}
	return out
}
