package collect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

// visdomExpected is what collect/visdom/testdata/generate.py wrote.
type visdomExpected map[string]struct {
	Type   string
	Traces map[string]struct {
		X []float64
		Y []*float64
	}
	HTML                   string
	Width, Height          int
	Pixel00                []uint8
	Count                  int
	Rate, Frames, Channels int64
}

func scalarOf(run *model.Run, tag string) *model.Scalar {
	for _, s := range run.Scalars {
		if s.Tag == tag {
			return s
		}
	}
	return nil
}

// TestVisdomFixtures collects the environments visdom saved and the log its
// client wrote, and checks what each page will show against what the
// generator wrote: line traces as scalars, images read back as the PNGs
// written, text as the HTML, and every window kept for the Visdom page.
func TestVisdomFixtures(t *testing.T) {
	dir := filepath.Join("visdom", "testdata")
	var exp visdomExpected
	b, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &exp); err != nil {
		t.Fatal(err)
	}
	rep := collectDir(t, dir, Options{})
	defer rep.Close()
	// env/exp2's image history: one step per image, as its slider.
	if exp2 := findRun(rep, "env/exp2"); exp2 == nil || len(exp2.Images) != 1 || len(exp2.Images[0].Entries) != 3 {
		t.Errorf("env/exp2: images %+v, want a history of 3", exp2)
	}
	if got := len(rep.Runs); got != 4 {
		t.Fatalf("%d runs, want 4 (env/exp2, env/replay, python/nan, replay)", got)
	}
	for _, name := range []string{"env/replay", "replay"} {
		run := findRun(rep, name)
		if run == nil {
			t.Fatalf("no run %q", name)
		}
		// Every window, in Visdom's order: those the generator wrote.
		want := 0
		for id := range exp {
			if !strings.Contains(id, "/") {
				want++
			}
		}
		if got := len(run.Visdom); got != want {
			t.Errorf("%s: %d windows, want %d", name, got, want)
		}
		for _, c := range []struct{ tag, window, trace string }{
			{"loss/train", "loss", "train"}, {"loss/val", "loss", "val"}, {"<script>alert('line')</script>", "hostile_line", "1"},
		} {
			s := scalarOf(run, c.tag)
			want := exp[c.window].Traces[c.trace]
			if s == nil || len(s.Points) != len(want.X) {
				t.Errorf("%s: scalar %q: %+v, want %d points", name, c.tag, s, len(want.X))
				continue
			}
			for i, p := range s.Points {
				if float64(p.Step) != want.X[i] || p.Value != *want.Y[i] {
					t.Errorf("%s: %q point %d: step %d value %v, want %v %v", name, c.tag, i, p.Step, p.Value, want.X[i], *want.Y[i])
				}
			}
		}
		// Epochs of 0.5 are not steps: drawn on the Visdom page only.
		if scalarOf(run, "accuracy by epoch") != nil {
			t.Errorf("%s: a trace of non-integral x became a scalar", name)
		}
		for _, im := range run.Images {
			e := exp[im.Tag]
			if e.Count > 0 && len(im.Entries) != e.Count {
				t.Errorf("%s: image %q: %d steps, want %d", name, im.Tag, len(im.Entries), e.Count)
			}
			data, err := im.Entries[0].Images[0].Data.Read()
			if err != nil {
				t.Fatalf("%s: image %q: %v", name, im.Tag, err)
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%s: image %q: %v", name, im.Tag, err)
			}
			if sz := img.Bounds().Size(); sz.X != e.Width || sz.Y != e.Height {
				t.Errorf("%s: image %q is %v, want %dx%d", name, im.Tag, sz, e.Width, e.Height)
			}
			if len(e.Pixel00) == 3 {
				r, g, b, _ := img.At(0, 0).RGBA()
				if got := []uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}; !bytes.Equal(got, e.Pixel00) {
					t.Errorf("%s: image %q pixel (0, 0) is %v, want %v", name, im.Tag, got, e.Pixel00)
				}
			}
		}
		if len(run.Images) != 3 {
			t.Errorf("%s: %d image series, want 3", name, len(run.Images))
		}
		texts := map[string]string{}
		for _, tx := range run.Texts {
			if tx.Plugin != "visdom" {
				t.Errorf("%s: text %q of plugin %q", name, tx.Tag, tx.Plugin)
			}
			texts[tx.Tag] = tx.Entries[0].Values[0]
		}
		if texts["notes"] != exp["text"].HTML || texts["<script>alert('t')</script>"] != exp["hostile_text"].HTML {
			t.Errorf("%s: texts %q", name, texts)
		}
		// The audio window's clip: a WAV of the rate and length written,
		// read back decoded from the file's base64.
		if len(run.Audio) != 1 || run.Audio[0].Tag != "audio" {
			t.Fatalf("%s: audio series %v", name, run.Audio)
		}
		c := run.Audio[0].Entries[0].Clips[0]
		e := exp["audio"]
		if c.ContentType != "audio/wav" || c.SampleRate != float64(e.Rate) || c.Frames != e.Frames || c.Channels != e.Channels {
			t.Errorf("%s: clip %+v, want %d Hz, %d frames, %d channel", name, c, e.Rate, e.Frames, e.Channels)
		}
		if wav, err := c.Data.Read(); err != nil || string(wav[:4]) != "RIFF" || len(wav) != 44+2*int(e.Frames) {
			t.Errorf("%s: clip bytes: %d, %v", name, len(wav), err)
		}
		// The network window 0-1-2: kept for the Visdom page to draw.
		for _, w := range run.Visdom {
			if w.ID == "graph" && (len(w.NodeLabels) != 3 || !slices.Equal(w.EdgeEnds, []int{0, 1, 1, 2})) {
				t.Errorf("%s: network %v %v", name, w.NodeLabels, w.EdgeEnds)
			}
		}
		// The one window not shown, the video, is listed with a warning.
		if len(run.Warnings) != 1 || !strings.Contains(run.Warnings[0].Msg, `window "video": its HTML embeds a video, which the report does not play`) {
			t.Errorf("%s: warnings %v, want one of the video", name, run.Warnings)
		}
	}
}

// TestVisdomHostile feeds the reader what no visdom writes: bad base64,
// a PNG that is not one, a huge claimed image, an unknown window type,
// escaped base64, a window whose title is markup; and JSON and logs that
// are not Visdom's, which must not become runs.
func TestVisdomHostile(t *testing.T) {
	dir := t.TempDir()
	png1 := "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
	win := func(id, typ, content string) string {
		return fmt.Sprintf(`%q: {"command": "window", "id": %q, "title": "<img src=x onerror=alert(1)>", "type": %q, "content": %s, "i": 0}`, id, id, typ, content)
	}
	env := `{"jsons": {` + strings.Join([]string{
		win("good", "image", `{"src": "data:image/png;base64,`+png1+`"}`),
		win("badb64", "image", `{"src": "data:image/png;base64,A=A=A=A="}`),
		win("notpng", "image", `{"src": "data:image/png;base64,aGVsbG8gd29ybGQ="}`),
		win("zeros", "image", `{"src": "data:image/png;base64,`+strings.Repeat("A", 100)+`"}`),
		win("future", "hologram", `{"x": 1}`),
		win("plot", "plot", `{"data": [{"x": [1, 2], "y": [1e308, null], "type": "scatter", "mode": "lines"}, {"x": "no", "type": "heatmap", "z": 5}], "layout": {"xaxis": {"title": {"text": "<b>x</b>"}}}}`),
	}, ", ") + `}, "reload": {}}`
	writeFiles(t, dir, []file{
		{"main.json", []byte(env)},
		// The same image, its base64 written with escapes: not where the
		// report could read it back.
		{"esc.json", []byte(`{"jsons": {` + win("escaped", "image", `{"src": "data:image\/png;base64,`+strings.ReplaceAll(png1, "/", `\/`)+`"}`) + `}}`)},
		{"package.json", []byte(`{"name": "x", "jsons": {}}`)},
		{"train.log", []byte("epoch 1 loss 0.3\n")},
		{"other.log", []byte(`["events", not json`)},
		// A file named only by its extension is a run named by the file.
		{"dot/.json", []byte(`{"jsons": {}, "reload": {}}`)},
	})
	rep := collectDir(t, dir, Options{})
	defer rep.Close()
	var names []string
	for _, r := range rep.Runs {
		names = append(names, r.Name)
	}
	if strings.Join(names, ",") != "dot/.json,esc,main,other" {
		t.Fatalf("runs %v, want dot/.json, esc, main (and other, a damaged log)", names)
	}
	run := rep.Runs[2]
	msgs := ""
	for _, r := range rep.Runs {
		for _, w := range r.Warnings {
			msgs += w.String() + "\n"
		}
	}
	for _, want := range []string{
		`window "badb64": image not kept: not a PNG, JPEG or GIF image`,
		`window "notpng": image not kept: not a PNG, JPEG or GIF image`,
		`window "escaped": image not kept: its base64 is not written verbatim in the file`,
		`window "zeros": image not kept: not a PNG, JPEG or GIF image`,
		`window "future": a window of type "hologram", which this report does not know: listed, not drawn`,
	} {
		if !strings.Contains(msgs, want) {
			t.Errorf("no warning %q in\n%s", want, msgs)
		}
	}
	if len(run.Images) != 1 || run.Images[0].Entries[0].Images[0].Width != 1 {
		t.Errorf("images: %+v", run.Images)
	}
	for _, w := range run.Visdom {
		if w.Title != "<img src=x onerror=alert(1)>" {
			t.Errorf("window %q: title %q: kept as text, not changed", w.ID, w.Title)
		}
		if w.ID == "plot" {
			if len(w.Traces) != 2 || w.XLabel != "<b>x</b>" || !math.IsNaN(w.Traces[0].Y[1]) {
				t.Errorf("plot: %+v", w)
			}
		}
	}
	other := rep.Runs[3]
	if len(other.SideFiles) != 1 || other.SideFiles[0].Status != "damaged" || len(other.Warnings) == 0 {
		t.Errorf("a damaged log: %+v %v", other.SideFiles, other.Warnings)
	}
}

// TestVisdomImageRef checks that a base64 reference reads back decoded,
// and that a damaged one says where.
func TestVisdomImageRef(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, []file{{"x.txt", []byte(`"aGVsbG8=" "a$$="`)}})
	rep := collectDir(t, dir, Options{})
	defer rep.Close()
	src := rep.Sources()[0]
	ref := model.NewBlobRef(src, "logs", "x.txt", 1, 8)
	ref.Encoding = "base64"
	if b, err := ref.Read(); err != nil || string(b) != "hello" {
		t.Errorf("Read: %q, %v", b, err)
	}
	bad := model.NewBlobRef(src, "logs", "x.txt", 13, 4)
	bad.Encoding = "base64"
	if _, err := bad.Read(); err == nil || !strings.Contains(err.Error(), "x.txt: offset 13") {
		t.Errorf("Read of bad base64: %v", err)
	}
}

// One NaN as Python's json writes it, or a value nested past 10,000
// levels, made the whole Visdom file unreadable, and a log directory of
// only that file "no event files found". The words are read as Python
// reads them, down to the Scalars page (a line of NaN, +Inf and -Inf);
// the deep value is one warning naming its window.
func TestVisdomPythonWords(t *testing.T) {
	dir := t.TempDir()
	nan, err := os.ReadFile("visdom/testdata/python/nan.json")
	if err != nil {
		t.Fatal(err)
	}
	deep := strings.Repeat("[", 10_001) + strings.Repeat("]", 10_001)
	writeFiles(t, dir, []file{
		{"nan/main.json", nan},
		{"deep/main.json", []byte(`{"jsons": {"d": {"id": "d", "title": "d", "type": "properties", "content": ` + deep + `}, ` +
			`"l": {"id": "l", "title": "l", "type": "plot", "i": 1, "content": {"data": [{"x": [0, 1], "y": [NaN, 2], "type": "scatter", "mode": "lines"}]}}}}`)},
	})
	rep := collectDir(t, dir, Options{})
	defer rep.Close()
	if len(rep.Runs) != 2 {
		t.Fatalf("%d runs", len(rep.Runs))
	}
	deepRun, nanRun := rep.Runs[0], rep.Runs[1]
	if len(nanRun.Warnings) > 0 || nanRun.SideFiles[0].Status != "ok" {
		t.Errorf("nan: %v, %+v", nanRun.Warnings, nanRun.SideFiles)
	}
	s := scalarOf(nanRun, "loss/train")
	if s == nil || len(s.Points) != 4 || s.Points[0].Value != 0.5 || !math.IsNaN(s.Points[1].Value) || !math.IsInf(s.Points[2].Value, 1) || !math.IsInf(s.Points[3].Value, -1) {
		t.Errorf("loss/train: %+v", s)
	}
	if len(deepRun.Warnings) != 1 || !strings.Contains(deepRun.Warnings[0].String(), `window "d": a value nested more than 10,000 levels deep left out`) {
		t.Errorf("deep: warnings %v", deepRun.Warnings)
	}
	if s := scalarOf(deepRun, "l"); s == nil || len(s.Points) != 2 || !math.IsNaN(s.Points[0].Value) {
		t.Errorf("deep: l: %+v", s)
	}
}
