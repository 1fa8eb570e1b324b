package model

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// String prints the report as the golden files of the tests hold it: every
// log directory, run, file and warning, every tag with its kind and
// counts, and every series, hyperparameter record, layout, graph and
// embedding, one line per item, deterministic and readable in a diff.
// A series prints its count and a hash of every field of every entry, and
// its first and last few entries in full, so that a small input prints
// whole and a large one stays reviewable while any change to it shows.
// Floats print in their shortest exact form; strings quoted and, past a
// bound, cut (the hash covers them whole); payload references as
// logdir:path@offset+length.
func (r *Report) String() string {
	var b strings.Builder
	p := printer{b: &b}
	p.line(0, "report%s%s", flag(r.KeepAllRecords, " (every record kept)"), flag(r.RestartRule != "" && r.RestartRule != RestartsAttempts, " restarts "+string(r.RestartRule)))
	for _, ld := range r.Logdirs {
		p.line(1, "logdir %s %s", q(ld.Name), q(ld.Path))
	}
	for _, w := range r.Warnings {
		p.line(1, "warning %s", strconv.Quote(w.String()))
	}
	for _, run := range r.Runs {
		p.run(run)
	}
	return b.String()
}

// shown is how many entries a series prints at each end.
const shown = 3

// maxQuoted bounds the bytes of a string printed.
const maxQuoted = 120

type printer struct{ b *strings.Builder }

func (p printer) line(depth int, format string, args ...any) {
	p.b.WriteString(strings.Repeat("  ", depth))
	fmt.Fprintf(p.b, format, args...)
	p.b.WriteByte('\n')
}

// q quotes s, cut after maxQuoted bytes with how many there were.
func q(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return strconv.Quote(s[:cut]) + fmt.Sprintf("...(%d bytes)", len(s))
}

// g prints a float in its shortest exact form.
func g(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func flag(set bool, s string) string {
	if set {
		return s
	}
	return ""
}

// ref prints a payload reference as logdir:path@offset+length. (Not a
// String method: TensorRef would take it over, and fmt would print a
// TensorRef as its bytes' place alone.)
func ref(r BlobRef) string {
	s := fmt.Sprintf("%s:%s@%d+%d", r.Logdir, r.Path, r.Offset, r.Length)
	if r.Encoding != "" {
		s += " " + r.Encoding
	}
	return s
}

// hash returns a short hash (FNV-1a) of every exported field of v, in the
// on-disk encoding: floats by their bits, maps by sorted key.
func hash(v any) string {
	h := fnv.New64a()
	w := bufio.NewWriter(h)
	e := encoder{w: w}
	e.value(reflect.ValueOf(v))
	w.Flush()
	return fmt.Sprintf("%012x", h.Sum64()>>16)
}

// entries prints the first and last shown of n entries, and how many
// there are between.
func (p printer) entries(depth, n int, entry func(i int)) {
	for i := 0; i < n; i++ {
		if i == shown && n > 2*shown {
			p.line(depth, "... %d more", n-2*shown)
			i = n - shown
		}
		entry(i)
	}
}

func (p printer) run(r *Run) {
	p.line(0, "run %s logdir %s path %s", q(r.Name), q(r.Logdir), q(r.Path))
	if r.HasEvents {
		p.line(1, "events steps %d..%d wall %s..%s restarts %d", r.FirstStep, r.LastStep, g(r.Start), g(r.End), r.Restarts)
	} else {
		p.line(1, "no events restarts %d", r.Restarts)
	}
	for k, a := range r.Attempts {
		fs := make([]string, len(a.Files))
		for i, f := range a.Files {
			fs[i] = q(f)
		}
		p.line(1, "attempt %d steps %d..%d points %d superseded %d files %s", k+1, a.FirstStep, a.LastStep, a.Points, a.Superseded, strings.Join(fs, " "))
	}
	for _, f := range r.Files {
		format := ""
		if f.Format != "" {
			format = " " + f.Format
		}
		p.line(1, "file %s %d bytes %d records %s%s", q(f.Rel), f.Size, f.Records, f.Status, format)
	}
	for _, f := range r.SideFiles {
		p.line(1, "side file %s %d bytes %d records %s", q(f.Rel), f.Size, f.Records, f.Status)
	}
	for _, w := range r.Warnings {
		p.line(1, "warning %s", strconv.Quote(w.String())) // whole: what a review must see
	}
	for _, t := range r.Tags {
		sup := ""
		if t.Superseded > 0 {
			sup = fmt.Sprintf(" (%d superseded)", t.Superseded)
		}
		p.line(1, "tag %s %s plugin %s class %s: %d values%s, steps %d..%d, wall %s..%s",
			q(t.Tag), t.Kind, q(t.Plugin), t.DataClass, t.Count, sup, t.FirstStep, t.LastStep, g(t.FirstWall), g(t.LastWall))
	}
	for _, s := range r.Scalars {
		p.line(1, "scalar %s%s display %s description %s dropped %d: %d points #%s",
			q(s.Tag), flag(s.Float32, " float32"), q(s.DisplayName), q(s.Description), s.Dropped, len(s.Points), hash(s.Points))
		p.entries(2, len(s.Points), func(i int) {
			pt := s.Points[i]
			p.line(2, "step %d wall %s value %s", pt.Step, g(pt.WallTime), g(pt.Value))
		})
		for _, sp := range s.Superseded {
			p.line(2, "superseded of attempt %d: %d points #%s", sp.Attempt, len(sp.Points), hash(sp.Points))
			p.entries(3, len(sp.Points), func(i int) {
				pt := sp.Points[i]
				p.line(3, "step %d wall %s value %s", pt.Step, g(pt.WallTime), g(pt.Value))
			})
		}
	}
	for _, s := range r.Histograms {
		p.line(1, "histogram %s dropped %d: %d entries #%s", q(s.Tag), s.Dropped, len(s.Entries), hash(s.Entries))
		p.entries(2, len(s.Entries), func(i int) {
			e := s.Entries[i]
			nonFinite := ""
			if e.NaN != 0 || e.PosInf != 0 || e.NegInf != 0 {
				nonFinite = fmt.Sprintf(" nan %d +inf %d -inf %d", e.NaN, e.PosInf, e.NegInf)
			}
			p.line(2, "step %d%s wall %s min %s max %s count %s sum %s%s: %d buckets #%s",
				e.Step, written(e.Written), g(e.WallTime), g(e.Min), g(e.Max), g(e.Count), g(e.Sum), nonFinite, len(e.Buckets), hash(e.Buckets))
		})
	}
	for _, s := range r.Images {
		p.line(1, "image %s dropped %d: %d entries #%s", q(s.Tag), s.Dropped, len(s.Entries), hash(s.Entries))
		p.entries(2, len(s.Entries), func(i int) {
			e := s.Entries[i]
			p.line(2, "step %d%s wall %s: %d images", e.Step, written(e.Written), g(e.WallTime), len(e.Images))
			p.entries(3, len(e.Images), func(j int) {
				im := e.Images[j]
				if px := im.Pixels; px != nil {
					p.line(3, "%dx%d %s %s pixels %s x%d", im.Width, im.Height, q(im.Format), ref(im.Data), q(px.DType), px.Channels)
					return
				}
				p.line(3, "%dx%d %s %s", im.Width, im.Height, q(im.Format), ref(im.Data))
			})
		})
	}
	for _, s := range r.Audio {
		p.line(1, "audio %s dropped %d: %d entries #%s", q(s.Tag), s.Dropped, len(s.Entries), hash(s.Entries))
		p.entries(2, len(s.Entries), func(i int) {
			e := s.Entries[i]
			p.line(2, "step %d%s wall %s: %d clips", e.Step, written(e.Written), g(e.WallTime), len(e.Clips))
			p.entries(3, len(e.Clips), func(j int) {
				c := e.Clips[j]
				p.line(3, "rate %s channels %d frames %d %s label %s %s", g(c.SampleRate), c.Channels, c.Frames, q(c.ContentType), q(c.Label), ref(c.Data))
			})
		})
	}
	for _, s := range r.Texts {
		p.line(1, "text %s plugin %s dropped %d: %d entries #%s", q(s.Tag), q(s.Plugin), s.Dropped, len(s.Entries), hash(s.Entries))
		p.entries(2, len(s.Entries), func(i int) {
			e := s.Entries[i]
			p.line(2, "step %d%s wall %s shape %v: %d values", e.Step, written(e.Written), g(e.WallTime), e.Shape, len(e.Values))
			p.entries(3, len(e.Values), func(j int) { p.line(3, "%s", q(e.Values[j])) })
		})
	}
	for _, s := range r.PRCurves {
		p.line(1, "pr curve %s thresholds %d dropped %d: %d entries #%s", q(s.Tag), s.NumThresholds, s.Dropped, len(s.Entries), hash(s.Entries))
		p.entries(2, len(s.Entries), func(i int) {
			e := s.Entries[i]
			p.line(2, "step %d%s wall %s%s: %d thresholds #%s", e.Step, written(e.Written), g(e.WallTime), flag(e.Float32, " float32"), len(e.Thresholds), hash(e))
		})
	}
	for _, list := range []struct {
		what string
		ts   []*Tensor
	}{{"tensor", r.Tensors}, {"mesh", r.Meshes}} {
		for _, s := range list.ts {
			p.line(1, "%s %s plugin %s dropped %d: %d entries #%s", list.what, q(s.Tag), q(s.Plugin), s.Dropped, len(s.Entries), hash(s.Entries))
			p.entries(2, len(s.Entries), func(i int) {
				e := s.Entries[i]
				enc := ""
				if e.Encoding != "" {
					enc = " " + e.Encoding
				}
				p.line(2, "step %d%s wall %s %s %v%s %s", e.Step, written(e.Written), g(e.WallTime), e.DType, e.Shape, enc, ref(e.Data))
			})
		}
	}
	if r.HParams != nil {
		p.hparams(r.HParams)
	}
	if r.Layout != nil {
		p.layout(r.Layout)
	}
	for _, gr := range r.Graphs {
		p.line(1, "graph %s %s step %d wall %s file %s %s seen %d: %d nodes producer %d #%s",
			gr.Source, q(gr.Tag), gr.Step, g(gr.WallTime), q(gr.File), ref(gr.Data), gr.Seen, len(gr.Nodes), gr.Producer, hash(gr.NodeGraph))
		if len(gr.Functions) > 0 {
			p.line(2, "%d functions, first %s", len(gr.Functions), q(gr.Functions[0]))
		}
		for _, n := range gr.Notes {
			p.line(2, "note %s", q(n))
		}
		if len(gr.Stats) > 0 {
			s := gr.Stats[0]
			p.line(2, "step stats of %d nodes, first %s on %s %d us %d bytes", len(gr.Stats), q(s.Node), q(s.Device), s.Micros, s.Bytes)
		}
		p.entries(2, len(gr.Nodes), func(i int) {
			n := gr.Nodes[i]
			p.line(2, "node %s op %s device %s: %d inputs %d attrs %d shapes", q(n.Name), q(n.Op), q(n.Device), len(n.Inputs), len(n.Attrs), len(n.OutputShapes))
		})
	}
	for _, e := range r.Embeddings {
		p.embedding(e)
	}
	for _, s := range r.Exceptions {
		p.line(1, "exception %s source %s dropped %d: %d entries #%s", q(s.Tag), q(s.Source), s.Dropped, len(s.Entries), hash(s.Entries))
		p.entries(2, len(s.Entries), func(i int) {
			e := s.Entries[i]
			p.line(2, "step %d wall %s file %s %s", e.Step, g(e.WallTime), q(e.File), tensorRef(e.Tensor))
		})
	}
	for _, w := range r.Visdom {
		p.line(1, "visdom window %s %s title %s type %s tag %s: %d traces #%s", q(w.Env), q(w.ID), q(w.Title), q(w.Type), q(w.Tag), len(w.Traces), hash(w))
		for _, t := range w.Traces {
			p.line(2, "trace %s %s mode %s%s%s: x %d y %d z %d (%dx%d) names %d/%d pie %d", q(t.Type), q(t.Name), q(t.Mode),
				flag(t.RightAxis, " right"), flag(t.ScalarTag != "", " scalar "+q(t.ScalarTag)), len(t.X), len(t.Y), len(t.Z), t.Rows, t.Cols, len(t.XNames), len(t.YNames), len(t.Values))
		}
		if len(w.Properties) > 0 || w.Images > 0 || w.Nodes > 0 {
			p.line(2, "%d properties, %d images, %d nodes, %d edges", len(w.Properties), w.Images, w.Nodes, w.Edges)
		}
		for _, n := range w.Notes {
			p.line(2, "note %s", q(n))
		}
	}
	if n := len(r.SessionLogs); n > 0 {
		p.line(1, "session logs: %d #%s", n, hash(r.SessionLogs))
		p.entries(2, n, func(i int) {
			e := r.SessionLogs[i]
			p.line(2, "step %d wall %s %s checkpoint %s msg %s", e.Step, g(e.WallTime), e.Status, q(e.CheckpointPath), q(e.Msg))
		})
	}
	if n := len(r.LogMessages); n > 0 {
		p.line(1, "log messages: %d #%s", n, hash(r.LogMessages))
		p.entries(2, n, func(i int) {
			e := r.LogMessages[i]
			p.line(2, "step %d wall %s level %d %s", e.Step, g(e.WallTime), e.Level, q(e.Message))
		})
	}
}

func tensorRef(t TensorRef) string {
	return fmt.Sprintf("%s %s %v %s", t.Format, t.DType, t.Shape, ref(t.BlobRef))
}

// quoted prints a hyperparameter value with its strings quoted, so that
// its kind shows, cut after maxQuoted bytes with how many there were.
func quoted(v HParamValue) string {
	var b strings.Builder
	v.write(&b)
	s := b.String()
	if len(s) <= maxQuoted {
		return s
	}
	cut := maxQuoted
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + fmt.Sprintf("...(%d bytes)", len(s))
}

func (p printer) hparams(hp *HParams) {
	p.line(1, "hparams: %d sessions", len(hp.Sessions))
	if x := hp.Experiment; x != nil {
		p.line(2, "experiment %s description %s user %s created %s", q(x.Name), q(x.Description), q(x.User), g(x.TimeCreated))
		for _, h := range x.HParams {
			dom := ""
			if h.Interval != nil {
				dom = fmt.Sprintf(" interval [%s, %s]", g(h.Interval.Min), g(h.Interval.Max))
			}
			if h.Discrete != nil {
				vals := make([]string, len(h.Discrete))
				for i, d := range h.Discrete {
					vals[i] = quoted(d)
				}
				dom += " discrete [" + strings.Join(vals, ", ") + "]"
			}
			p.line(3, "hparam %s %s display %s description %s%s", q(h.Name), h.Type, q(h.DisplayName), q(h.Description), dom)
		}
		for _, m := range x.Metrics {
			p.line(3, "metric %s %s display %s description %s dataset %s", q(m.Group), q(m.Tag), q(m.DisplayName), q(m.Description), m.DatasetType)
		}
	}
	for _, s := range hp.Sessions {
		st := s.Start
		p.line(2, "session group %s source %s start %s model %s monitor %s experiment run %s",
			q(st.GroupName), q(st.Source), g(st.StartTime), q(st.ModelURI), q(st.MonitorURL), q(s.ExperimentRun))
		for _, k := range slices.Sorted(maps.Keys(st.HParams)) {
			p.line(3, "hparam %s = %s", q(k), quoted(st.HParams[k]))
		}
		for _, k := range slices.Sorted(maps.Keys(st.Metrics)) {
			p.line(3, "written metric %s = %s", q(k), quoted(st.Metrics[k]))
		}
		for _, k := range slices.Sorted(maps.Keys(s.Metrics)) {
			m := s.Metrics[k]
			p.line(3, "metric %s = %s step %d wall %s run %s", q(k), g(m.Value), m.Step, g(m.WallTime), q(m.Run))
		}
		if s.End != nil {
			p.line(3, "end %s at %s", s.End.Status, g(s.End.EndTime))
		}
	}
}

func (p printer) layout(l *Layout) {
	p.line(1, "layout: %d categories", len(l.Categories))
	for _, c := range l.Categories {
		p.line(2, "category %s%s: %d charts", q(c.Title), flag(c.Closed, " closed"), len(c.Charts))
		for _, ch := range c.Charts {
			switch {
			case ch.Multiline != nil:
				tags := make([]string, len(ch.Multiline))
				for i, t := range ch.Multiline {
					tags[i] = q(t)
				}
				p.line(3, "chart %s multiline [%s]", q(ch.Title), strings.Join(tags, ", "))
			case ch.Margin != nil:
				p.line(3, "chart %s margin", q(ch.Title))
				for _, m := range ch.Margin {
					p.line(4, "value %s lower %s upper %s", q(m.Value), q(m.Lower), q(m.Upper))
				}
			default:
				p.line(3, "chart %s empty", q(ch.Title))
			}
		}
	}
}

func (p printer) embedding(e *Embedding) {
	p.line(1, "embedding %s source %s file %s step %d wall %s shape %v checkpoint %s #%s",
		q(e.Name), q(e.Source), q(e.File), e.Step, g(e.WallTime), e.Shape, q(e.Checkpoint), hash(e))
	if e.Points != nil {
		p.line(2, "points %s", tensorRef(*e.Points))
	}
	if m := e.Metadata; m != nil {
		p.line(2, "metadata file %s columns %d rows %d", q(m.File), len(m.Columns), len(m.Rows))
	}
	if s := e.Sprite; s != nil {
		p.line(2, "sprite file %s %s %s %dx%d thumbnails %dx%d", q(s.File), ref(s.Data), q(s.Format), s.Width, s.Height, s.SingleImageDim[0], s.SingleImageDim[1])
	}
	if s := e.Sample; s != nil {
		p.line(2, "sample %s type %s %s", q(s.Name), q(s.Type), tensorRef(s.Tensor))
	}
}

// written says who wrote an entry, when it is not the line's of a run's
// first attempt: " (attempt 2)", " (attempt 1, superseded)".
func written(w Written) string {
	switch {
	case w.Superseded:
		return fmt.Sprintf(" (attempt %d, superseded)", w.Attempt)
	case w.Attempt > 1:
		return fmt.Sprintf(" (attempt %d)", w.Attempt)
	}
	return ""
}
