package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// mediaInputs are the log directories with images or audio: corpus entries
// and the real writers' fixtures of package collect.
func mediaInputs(t *testing.T) map[string]string {
	dirs := map[string]string{}
	root := corpus(t)
	for _, e := range []string{"keras-tf22-images", "tbx12-2018-no-file-version", "tsvis-oneflow-logs"} {
		dirs[e] = filepath.Join(root, e)
	}
	for _, w := range []string{"tensorboardx", "tf2", "keras", "torch"} {
		dirs["writers-"+w] = filepath.Join("..", "collect", "testdata", "writers", w)
	}
	return dirs
}

// TestMediaFilesAreTheLogsBytes checks that every media file of the site
// holds exactly the bytes that collect's BlobRef reads from the event
// file (by SHA-256), that the data files name each of them, that the
// budget of kept steps holds with the last step kept, and that the single
// file inlines the same bytes.
func TestMediaFilesAreTheLogsBytes(t *testing.T) {
	for entry, dir := range mediaInputs(t) {
		t.Run(entry, func(t *testing.T) {
			rep := collectDir(t, entry, dir)
			r := newReport(rep, Options{Title: entry})
			files := filesByName(t, r)
			want := map[string][32]byte{} // site file -> SHA-256 of the logs' bytes
			check := func(kind, run, tag string, steps []int64, blobs func(i int) []model.BlobRef, exts func(i int) []string) {
				ms := newMediaSeries(&model.Run{Name: run}, steps, r.an.Media.Keep(len(steps)))
				if len(ms.keep) != min(len(steps), analysis.DefaultMediaSteps) || len(steps) > 0 && ms.keep[len(ms.keep)-1] != len(steps)-1 {
					t.Errorf("%s %q %q: kept %d of %d steps", kind, run, tag, len(ms.keep), len(steps))
				}
				for j, idx := range ms.keep {
					for i, ref := range blobs(idx) {
						b, err := ref.Read()
						if err != nil {
							t.Fatal(err)
						}
						want[mediaFile(kind, run, tag, ms.names[j], i, exts(idx)[i])] = sha256.Sum256(b)
					}
				}
			}
			for _, run := range rep.Runs {
				for _, im := range run.Images {
					steps := make([]int64, len(im.Entries))
					for i, e := range im.Entries {
						steps[i] = e.Step
					}
					check("images", run.Name, im.Tag, steps, func(i int) (refs []model.BlobRef) {
						for _, it := range im.Entries[i].Images {
							refs = append(refs, it.Data)
						}
						return refs
					}, func(i int) (exts []string) {
						for _, it := range im.Entries[i].Images {
							ext, _ := imageType(it.Format)
							exts = append(exts, ext)
						}
						return exts
					})
				}
				for _, a := range run.Audio {
					steps := make([]int64, len(a.Entries))
					for i, e := range a.Entries {
						steps[i] = e.Step
					}
					check("audio", run.Name, a.Tag, steps, func(i int) (refs []model.BlobRef) {
						for _, c := range a.Entries[i].Clips {
							refs = append(refs, c.Data)
						}
						return refs
					}, func(i int) (exts []string) {
						for _, c := range a.Entries[i].Clips {
							_, ext := result.ClipType(c.ContentType)
							exts = append(exts, ext)
						}
						return exts
					})
				}
			}
			// Sprites of the embeddings, a file per (run, embedding, step).
			for _, v := range r.an.Embeddings.Sets {
				for j, s := range v.Steps {
					if s.Embedding.Sprite == nil {
						continue
					}
					if b, err := readBlob(s.Embedding.Sprite.Data); err == nil {
						want[spriteFile(v, j, s.Embedding.Sprite)] = sha256.Sum256(b)
					}
				}
			}
			if len(want) == 0 {
				t.Fatal("no media")
			}
			got := 0
			named := map[string]bool{}
			for name, data := range files {
				if strings.HasPrefix(name, "data/images/") || strings.HasPrefix(name, "data/audio/") {
					var m map[string][]struct {
						File   string
						Images []struct{ File string }
						Clips  []struct{ File string }
					}
					if err := json.Unmarshal(data, &m); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for _, entries := range m {
						for _, e := range entries {
							for _, x := range e.Images {
								named[x.File] = true
							}
							for _, x := range e.Clips {
								named[x.File] = true
							}
						}
					}
				}
				if strings.HasPrefix(name, "data/embeddings/") && strings.HasSuffix(name, ".json") {
					var e struct {
						Steps []struct{ Sprite *struct{ Src string } }
					}
					if err := json.Unmarshal(data, &e); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for _, st := range e.Steps {
						if st.Sprite != nil {
							named[st.Sprite.Src] = true
						}
					}
				}
				if !strings.HasPrefix(name, "media/") {
					continue
				}
				got++
				sum, ok := want[name]
				if !ok {
					t.Errorf("site file %s is no kept image or clip", name)
				} else if sha256.Sum256(data) != sum {
					t.Errorf("%s differs from the logs' bytes", name)
				}
			}
			if got != len(want) {
				t.Errorf("%d media files in the site, want %d", got, len(want))
			}
			for name := range want {
				if !named[name] {
					t.Errorf("%s is in no data file", name)
				}
			}
			// The single file carries the same bytes as data: URIs.
			var single bytes.Buffer
			if err := r.WriteSingleFile(&single); err != nil {
				t.Fatal(err)
			}
			for name := range want {
				mime := "image/png"
				switch filepath.Ext(name) {
				case ".wav":
					mime = "audio/wav"
				case ".jpg":
					mime = "image/jpeg"
				case ".gif":
					mime = "image/gif"
				}
				uri := dataURI(mime, files[name])
				if mime == "audio/wav" {
					uri = strings.TrimPrefix(uri, "data:audio/wav") // the clip's own content type
				}
				if !bytes.Contains(single.Bytes(), []byte(uri)) {
					t.Errorf("single file: no data: URI of %s", name)
				}
				if bytes.Contains(single.Bytes(), []byte(`"`+name+`"`)) {
					t.Errorf("single file refers to %s", name)
				}
			}
		})
	}
}

// mediaBlobs writes a PNG, a WAV clip and bytes that are no WAV into a
// file and returns references to them.
func mediaBlobs(t *testing.T) (pngRef, wavRef, junkRef model.BlobRef) {
	var p bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	img.Set(1, 1, color.RGBA{255, 0, 0, 255})
	if err := png.Encode(&p, img); err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	w := []byte("RIFF\x00\x00\x00\x00WAVEfmt ")
	w = le.AppendUint32(w, 16)
	for _, v := range []uint16{1, 1} {
		w = le.AppendUint16(w, v)
	}
	w = le.AppendUint32(w, 8000)
	w = le.AppendUint32(w, 16000)
	w = le.AppendUint16(w, 2)
	w = le.AppendUint16(w, 16)
	w = append(w, "data"...)
	w = le.AppendUint32(w, 200)
	w = append(w, make([]byte, 200)...)
	junk := []byte("ID3 not a wave")
	dir := t.TempDir()
	all := append(append(append([]byte{}, p.Bytes()...), w...), junk...)
	if err := os.WriteFile(filepath.Join(dir, "blobs"), all, 0o644); err != nil {
		t.Fatal(err)
	}
	src := openLogdir(t, dir)
	n1, n2 := int64(p.Len()), int64(len(w))
	return model.NewBlobRef(src, "", "blobs", 0, n1), model.NewBlobRef(src, "", "blobs", n1, n2),
		model.NewBlobRef(src, "", "blobs", n1+n2, int64(len(junk)))
}

// TestMediaUntrustedNamesStayInert gives images and clips hostile run
// and tag names and clips hostile Markdown labels: the pages hold none of
// them unescaped, the files stay inside the site, and a clip that is no
// WAV keeps its player and says why it has no preview.
func TestMediaUntrustedNamesStayInert(t *testing.T) {
	pngRef, wavRef, junkRef := mediaBlobs(t)
	rep := synthetic(map[string]map[string][]float64{})
	for _, name := range hostile {
		run := &model.Run{Name: name, Logdir: "logs", Path: name}
		for _, tag := range hostile {
			run.Images = append(run.Images, &model.Image{Tag: tag, Entries: []model.ImageEntry{
				{Step: 1, WallTime: 1e9, Images: []model.ImageItem{{Width: 4, Height: 3, Format: "png", Data: pngRef}, {Format: "png", Data: pngRef}}}}})
			run.Audio = append(run.Audio, &model.Audio{Tag: tag, Entries: []model.AudioEntry{
				{Step: 1, WallTime: 1e9, Clips: []model.AudioClip{
					{SampleRate: 8000, Channels: 1, Frames: 100, ContentType: "audio/wav", Label: tag + ` [x](javascript:alert(3)) <script>alert(4)</script>`, Data: wavRef},
					{ContentType: `audio/wav"><script>alert(5)</script>`, Data: junkRef}}}}})
		}
		rep.Runs = append(rep.Runs, run)
	}
	r := newReport(rep, Options{})
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	if err := r.WriteSite(out); err != nil {
		t.Fatal(err)
	}
	var single bytes.Buffer
	if err := r.WriteSingleFile(&single); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files written beside the site: %v", entries)
	}
	media := 0
	filepath.WalkDir(filepath.Join(out, "media"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			media++
		}
		return nil
	})
	if want := len(hostile) * len(hostile) * 4; media != want {
		t.Errorf("%d media files, want %d: names collided", media, want)
	}
	pages := map[string][]byte{"single-file": single.Bytes()}
	for _, p := range []string{"images.html", "audio.html"} {
		b, err := os.ReadFile(filepath.Join(out, p))
		if err != nil {
			t.Fatal(err)
		}
		pages[p] = b
	}
	for name, b := range pages {
		// A label's raw HTML shows as escaped text, so "javascript:" may
		// appear as words; as a link target it may not.
		for _, bad := range []string{"<script>alert", "<img src=x", `href="javascript`, `href=\"javascript`, `href=\u0022javascript`, `"><script`} {
			if bytes.Contains(b, []byte(bad)) {
				t.Errorf("%s holds %q unescaped", name, bad)
			}
		}
		for _, chunk := range bytes.Split(b, []byte(`class="media-data">`))[1:] {
			end := bytes.Index(chunk, []byte("</script>"))
			var tj struct {
				Tag  string
				Runs []struct {
					Name    string
					Entries []struct {
						Clips []clipViewJSON
					}
				}
			}
			if err := json.Unmarshal(chunk[:end], &tj); err != nil {
				t.Fatalf("%s: media data does not parse: %v: %.300s", name, err, chunk)
			}
			if !contains(hostile, tj.Tag) {
				t.Errorf("%s: tag %q is not one of the input's", name, tj.Tag)
			}
			for _, run := range tj.Runs {
				if !contains(hostile, run.Name) {
					t.Errorf("%s: run %q is not one of the input's", name, run.Name)
				}
				for _, e := range run.Entries {
					for i, c := range e.Clips {
						if i == 0 && (c.Error != "" || c.Spec == nil || len(c.Wave) == 0 || strings.Contains(string(c.Label), "<script")) {
							t.Errorf("%s: clip %+v", name, c)
						}
						if i == 1 && (c.Type != "audio/wav" || !strings.Contains(c.Error, "not a RIFF WAVE")) {
							t.Errorf("%s: junk clip of type %q, error %q", name, c.Type, c.Error)
						}
					}
				}
			}
		}
	}
}

// The site's Audio page reads no clip the analysis read: a clip the
// analysis could not read says so in the analysis's words, one it decoded
// shows its previews; the single file reads the clip for its bytes, and
// a clip without an analysis keeps its player and says it has no preview.
func TestClipViewReadsWhatTheAnalysisDidNot(t *testing.T) {
	noSource := model.AudioClip{ContentType: "audio/wav", Data: model.BlobRef{Path: "clip.wav", Length: 10}} // any read fails
	v := clipView(noSource, "media/a.wav", false, newMarkdown(), &result.ClipPreview{Read: true, ReadErr: "the analysis's error"})
	if v.Src != "" || v.Error != "clip not shown: the analysis's error" {
		t.Errorf("site, clip the analysis could not read: src %q, error %q", v.Src, v.Error)
	}
	read := &result.ClipPreview{Read: true, Rate: 8000, Channels: 1, Duration: 2, Wave: [][2]float64{{-1, 1}},
		Spec: &result.Spectrogram{Times: []float64{1}, Freqs: []float64{0}, Levels: "z"}}
	v = clipView(noSource, "media/a.wav", false, newMarkdown(), read)
	if v.Src != "media/a.wav" || v.Error != "" || v.Rate != 8000 || v.Duration != 2 || v.Spec == nil || v.Spec.Levels != "z" {
		t.Errorf("site, clip the analysis decoded: %+v", v)
	}
	v = clipView(noSource, "media/a.wav", true, newMarkdown(), read)
	if v.Src != "" || !strings.HasPrefix(v.Error, "clip not shown: ") || strings.Contains(v.Error, "analysis") {
		t.Errorf("single file: src %q, error %q, want the clip read again and its read's error", v.Src, v.Error)
	}
	_, wavRef, _ := mediaBlobs(t)
	v = clipView(model.AudioClip{ContentType: "audio/wav", Data: wavRef}, "media/a.wav", false, newMarkdown(), nil)
	if v.Src != "media/a.wav" || v.Error != "no preview: the analysis holds none" {
		t.Errorf("clip without an analysis: src %q, error %q", v.Src, v.Error)
	}
}
