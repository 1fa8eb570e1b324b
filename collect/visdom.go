package collect

import (
	"cmp"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/trainreport/trainreport/collect/discover"
	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/collect/visdom"
)

// The kinds of Visdom's files (docs/FORMATS.md section 22), each a run of
// its own, told from other JSON by their first bytes.
const (
	// kindVisdomEnv is a saved Visdom environment, <env>.json, told by its
	// first key: the run <dir>/<env>.
	kindVisdomEnv discover.Kind = "visdom-env"
	// kindVisdomLog is a Visdom client replay log (log_to_filename), told
	// by its first line: a run named by the file without its extension.
	kindVisdomLog discover.Kind = "visdom-log"
)

// visdomFile takes a file named by the extensions of Visdom's files (of
// which Sniff tells) into the run of its own, named by the file without
// its extension.
func visdomFile(c discover.Candidate, exts ...string) (run string, ok bool) {
	ext := path.Ext(c.Name)
	if c.Size <= 0 || !slices.Contains(exts, ext) {
		return "", false
	}
	if c.Name == ext { // ".json": no name without it
		return c.Rel, true
	}
	return strings.TrimSuffix(c.Rel, ext), true
}

// visdomRun maps the Visdom files of a run into it (docs/FORMATS.md section
// 21): each line trace with whole, increasing x becomes a scalar series,
// images image series, audio clips audio series, text text series (HTML,
// which the Text page sanitises), and every window is kept whole for the
// Visdom page.
type visdomRun struct {
	run  *model.Run
	src  *logfs.Dir
	used map[string]bool // the run's tags, taken and reserved
}

// readVisdom reads the run's Visdom files, after its event files.
func readVisdom(run *model.Run, src *logfs.Dir, side []discover.SideFile) {
	var files []discover.SideFile
	for _, sf := range side {
		if sf.Kind == kindVisdomEnv || sf.Kind == kindVisdomLog {
			files = append(files, sf)
		}
	}
	if len(files) == 0 {
		return
	}
	vr := &visdomRun{run: run, src: src, used: map[string]bool{}}
	for _, t := range run.Tags {
		vr.used[t.Tag] = true
	}
	type read struct {
		sf  discover.SideFile
		res visdom.Result
	}
	var reads []read
	envs := map[string]bool{}
	for _, sf := range files {
		data, err := src.ReadFile(sf.Rel, visdom.MaxFileBytes)
		if err != nil {
			run.Warnings = append(run.Warnings, model.Warning{File: sf.Rel, Offset: -1, Msg: err.Error()})
			run.SideFiles = append(run.SideFiles, model.File{Rel: sf.Rel, Size: sf.Size, Status: "damaged"})
			continue
		}
		var res visdom.Result
		if sf.Kind == kindVisdomEnv {
			res = visdom.ReadEnv(data, strings.TrimSuffix(path.Base(sf.Rel), ".json"))
		} else {
			res = visdom.ReadLog(data)
		}
		for _, env := range res.Envs {
			envs[env.Name] = true
		}
		reads = append(reads, read{sf, res})
	}
	// Tags carry the environment's name when the run holds several.
	several := len(envs) > 1
	for _, rd := range reads {
		f := model.File{Rel: rd.sf.Rel, Size: rd.sf.Size, Status: "ok"}
		if rd.res.Damaged {
			f.Status = "damaged"
		}
		for _, p := range rd.res.Problems {
			run.Warnings = append(run.Warnings, model.Warning{File: rd.sf.Rel, Offset: p.Offset, Msg: p.Msg})
		}
		for _, env := range rd.res.Envs {
			for _, w := range env.Windows {
				base := cmp.Or(w.Title, w.ID)
				if several {
					base = env.Name + "/" + base
				}
				vr.window(rd.sf.Rel, env.Name, vr.unique(base, w.ID), w)
				f.Records++
			}
		}
		run.SideFiles = append(run.SideFiles, f)
	}
	slices.SortFunc(run.SideFiles, func(a, b model.File) int { return strings.Compare(a.Rel, b.Rel) })
	slices.SortFunc(run.Tags, func(a, b model.TagInfo) int { return strings.Compare(a.Tag, b.Tag) })
	slices.SortFunc(run.Scalars, func(a, b *model.Scalar) int { return strings.Compare(a.Tag, b.Tag) })
	slices.SortFunc(run.Images, func(a, b *model.Image) int { return strings.Compare(a.Tag, b.Tag) })
	slices.SortFunc(run.Texts, func(a, b *model.Text) int { return strings.Compare(a.Tag, b.Tag) })
	slices.SortFunc(run.Audio, func(a, b *model.Audio) int { return strings.Compare(a.Tag, b.Tag) })
}

// unique returns tag, or tag with the window's id behind it, or a number,
// whichever the run does not hold yet, and reserves it.
func (vr *visdomRun) unique(tag, id string) string {
	t := tag
	for n := 1; vr.used[t]; n++ {
		if n == 1 && id != "" && id != tag {
			t = fmt.Sprintf("%s (%s)", tag, id)
		} else {
			t = fmt.Sprintf("%s (%d)", tag, n)
		}
	}
	vr.used[t] = true
	return t
}

func (vr *visdomRun) tag(info model.TagInfo) {
	info.Plugin = "visdom"
	vr.run.Tags = append(vr.run.Tags, info)
}

// window maps one window into the run.
func (vr *visdomRun) window(rel, env, tag string, w *visdom.Window) {
	mw := &model.VisdomWindow{Env: env, ID: w.ID, Title: w.Title, Type: w.Type, Tag: tag,
		XLabel: w.XLabel, YLabel: w.YLabel, Y2Label: w.Y2Label, Caption: w.Caption, Nodes: w.Nodes, Edges: w.Edges,
		NodeLabels: w.NodeLabels, EdgeEnds: w.EdgeEnds}
	if w.Cut != "" {
		mw.Notes = append(mw.Notes, "cut: "+w.Cut)
	}
	vr.run.Visdom = append(vr.run.Visdom, mw)
	warn := func(format string, args ...any) {
		vr.run.Warnings = append(vr.run.Warnings, model.Warning{File: rel, Offset: w.Offset, Msg: fmt.Sprintf("window %q: ", w.ID) + fmt.Sprintf(format, args...)})
	}
	listed := true // as a tag of kind visdom
	switch w.Type {
	case "plot", "plot_history":
		listed = vr.plot(mw, w.Traces)
	case "image", "image_history":
		listed = !vr.images(rel, mw, w.Images)
	case "text":
		if len(w.Clips) > 0 {
			listed = !vr.audio(rel, mw, w.Clips)
			break
		}
		if media := embeddedMedia(w.Text); media != "" {
			// An SVG drawing is kept for the Visdom page, which shows it
			// as an image (which runs no script and loads nothing).
			if media == "an SVG drawing" {
				mw.SVG = svgOf(w.Text)
			}
			if mw.SVG == "" {
				msg := fmt.Sprintf("its HTML embeds %s, which the report does not play or draw (sanitised away): listed on the Visdom page", media)
				mw.Notes = append(mw.Notes, msg)
				warn("%s", msg)
			}
			break
		}
		vr.run.Texts = append(vr.run.Texts, &model.Text{Tag: tag, Plugin: "visdom",
			Entries: []model.TextEntry{{Values: []string{w.Text}}}})
		vr.tag(model.TagInfo{Tag: tag, Kind: model.KindText, DataClass: "tensor", Count: 1})
		listed = false
	case "properties":
		for _, p := range w.Properties {
			mw.Properties = append(mw.Properties, model.VisdomProperty{Type: p.Type, Name: p.Name, Value: p.Value})
		}
	case "network":
		if len(w.NodeLabels) > 0 {
			break // drawn on the Visdom page
		}
		fallthrough
	default:
		msg := fmt.Sprintf("a %s window, listed, not drawn (this report does not draw Visdom's %s windows)", clipName(w.Type), clipName(w.Type))
		if !slices.Contains([]string{"network", "embeddings"}, w.Type) {
			msg = fmt.Sprintf("a window of type %q, which this report does not know: listed, not drawn", clipName(w.Type))
		}
		mw.Notes = append(mw.Notes, msg)
		warn("%s", msg)
	}
	if listed {
		vr.tag(model.TagInfo{Tag: tag, Kind: model.KindVisdom, DataClass: "unknown", Count: 1})
	}
}

// clipName shortens a window type from a log for a message, at a
// character boundary.
func clipName(s string) string {
	if len(s) <= 40 {
		return s
	}
	n := 40
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// svgOf returns the <svg> element of a Visdom svg window's HTML, or "".
func svgOf(html string) string {
	i := strings.Index(strings.ToLower(html), "<svg")
	j := strings.LastIndex(strings.ToLower(html), "</svg>")
	if i < 0 || j < i {
		return ""
	}
	return html[i : j+len("</svg>")]
}

// embeddedMedia names what a text window embeds that sanitised HTML
// cannot show: Visdom sends audio, video and SVG as text.
func embeddedMedia(html string) string {
	head := strings.ToLower(html[:min(len(html), 4096)])
	for _, m := range []string{"audio", "video", "svg"} {
		if strings.Contains(head, "<"+m) {
			return map[string]string{"audio": "an audio clip", "video": "a video", "svg": "an SVG drawing"}[m]
		}
	}
	return ""
}

// audio makes the clips of an audio window (text whose HTML embeds them)
// an audio series, one step per clip; it reports whether there was any.
func (vr *visdomRun) audio(rel string, mw *model.VisdomWindow, clips []visdom.Clip) bool {
	s := &model.Audio{Tag: mw.Tag}
	for i, c := range clips {
		ref := model.NewBlobRef(vr.src, vr.run.Logdir, rel, c.Offset, c.Length)
		ref.Encoding = "base64"
		ac := model.AudioClip{ContentType: c.MIME, Data: ref}
		if c.MIME == "audio/wav" || c.MIME == "audio/x-wav" || c.MIME == "audio/wave" {
			ac.SampleRate, ac.Channels, ac.Frames = wavInfo(c.Head)
		}
		s.Entries = append(s.Entries, model.AudioEntry{Step: int64(i), Clips: []model.AudioClip{ac}})
	}
	if len(s.Entries) == 0 {
		return false
	}
	vr.run.Audio = append(vr.run.Audio, s)
	vr.tag(model.TagInfo{Tag: mw.Tag, Kind: model.KindAudio, DataClass: "blob_sequence", Count: len(s.Entries), LastStep: int64(len(s.Entries) - 1)})
	return true
}

// plot keeps a plot window's traces and makes the line traces scalar
// series; it reports whether the window needs a tag of its own (no trace
// became a scalar series).
func (vr *visdomRun) plot(mw *model.VisdomWindow, traces []visdom.Trace) bool {
	var scalars []int
	for i, t := range traces {
		mw.Traces = append(mw.Traces, model.VisdomTrace{Type: t.Type, Name: t.Name, Mode: t.Mode, X: t.X, Y: t.Y, Z: t.Z,
			XNames: t.XNames, YNames: t.YNames, Rows: t.Rows, Cols: t.Cols, Labels: t.Labels, Values: t.Values, RightAxis: t.RightAxis})
		if t.Type == "scatter" && strings.Contains(cmp.Or(t.Mode, "lines"), "lines") && len(t.X) > 0 && len(t.X) == len(t.Y) {
			switch {
			case steps(t.X):
				scalars = append(scalars, i)
			case slices.ContainsFunc(t.X, math.IsNaN):
				// Stems and quivers: segments broken by nulls, not a series.
			default:
				mw.Notes = append(mw.Notes, fmt.Sprintf("trace %q: x is not a run of increasing whole steps, so it is drawn here only, against its x, and not on the Scalars page", t.Name))
			}
		}
	}
	for _, i := range scalars {
		t := &mw.Traces[i]
		// A trace named by the user (a legend) is tagged by window and
		// name, so that the same window of several environments lines up
		// on the Scalars page however many traces each holds; one trace
		// of Visdom's default name ("1") is the window.
		tag := mw.Tag
		if len(traces) > 1 || !defaultName(t.Name) {
			tag = vr.unique(mw.Tag+"/"+cmp.Or(t.Name, fmt.Sprint(i+1)), "")
		}
		t.ScalarTag = tag
		pts := make([]model.Point, len(t.X))
		for k := range t.X {
			pts[k] = model.Point{Step: int64(t.X[k]), Value: t.Y[k]}
		}
		vr.run.Scalars = append(vr.run.Scalars, &model.Scalar{Tag: tag, Points: pts, DisplayName: t.Name})
		vr.tag(model.TagInfo{Tag: tag, Kind: model.KindScalar, DataClass: "scalar", Count: len(pts), FirstStep: pts[0].Step, LastStep: pts[len(pts)-1].Step})
	}
	return len(scalars) == 0
}

// defaultName reports whether a trace's name is one Visdom gave it: its
// number in the window, or none.
func defaultName(name string) bool {
	for _, c := range name {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// steps reports whether x are whole numbers, strictly increasing, within
// the steps a report can hold.
func steps(x []float64) bool {
	for i, v := range x {
		if v != math.Trunc(v) || math.Abs(v) > 1<<53 || i > 0 && v <= x[i-1] {
			return false
		}
	}
	return true
}

// images makes an image window's images an image series, one step per
// image (an image_history's slider); it reports whether there was any.
func (vr *visdomRun) images(rel string, mw *model.VisdomWindow, ims []visdom.Image) bool {
	if len(ims) == 0 {
		mw.Notes = append(mw.Notes, "no image could be kept (see the warnings)")
		return false
	}
	s := &model.Image{Tag: mw.Tag}
	for i, im := range ims {
		ref := model.NewBlobRef(vr.src, vr.run.Logdir, rel, im.Offset, im.Length)
		ref.Encoding = "base64"
		s.Entries = append(s.Entries, model.ImageEntry{Step: int64(i), Images: []model.ImageItem{{Width: im.Width, Height: im.Height, Format: im.Format, Data: ref}}})
	}
	mw.Images = len(ims)
	if c := ims[len(ims)-1].Caption; c != "" && mw.Caption == "" {
		mw.Caption = c
	}
	vr.run.Images = append(vr.run.Images, s)
	vr.tag(model.TagInfo{Tag: mw.Tag, Kind: model.KindImage, DataClass: "blob_sequence", Count: len(s.Entries), LastStep: int64(len(ims) - 1)})
	return true
}
