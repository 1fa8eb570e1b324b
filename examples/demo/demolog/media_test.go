package demolog

import (
	"context"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/internal/analysis/audio"
)

// TestMedia reads the run "samples" back with package collect: its image
// and audio tags, the batch of three, the GIF, and clips that decode with
// their labels.
func TestMedia(t *testing.T) {
	dir := generateInto(t)
	rep, err := collect.Collect(context.Background(), []model.Logdir{{Name: "logs", Path: dir}}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var run *model.Run
	for _, r := range rep.Runs {
		if r.Name == "samples" {
			run = r
		}
	}
	if run == nil {
		t.Fatal("no run samples")
	}
	images := map[string]*model.Image{}
	for _, im := range run.Images {
		images[im.Tag] = im
	}
	for tag, want := range map[string][2]int{"samples/reconstruction": {120, 1}, "samples/batch": {5, 3}, "samples/animation": {1, 1}} {
		im := images[tag]
		if im == nil || len(im.Entries) != want[0] || len(im.Entries[0].Images) != want[1] {
			t.Fatalf("%s: %+v, want %d steps of %d images", tag, im, want[0], want[1])
		}
		format := "png"
		if tag == "samples/animation" {
			format = "gif"
		}
		if it := im.Entries[0].Images[0]; it.Format != format || it.Width == 0 {
			t.Errorf("%s: %+v", tag, it)
		}
	}
	if len(run.Audio) != 1 || len(run.Audio[0].Entries) != 3 {
		t.Fatalf("audio: %+v", run.Audio)
	}
	for _, e := range run.Audio[0].Entries {
		if len(e.Clips) != 2 || e.Clips[0].Label == "" {
			t.Fatalf("audio step %d: %+v", e.Step, e.Clips)
		}
		b, err := e.Clips[1].Data.Read()
		if err != nil {
			t.Fatal(err)
		}
		if p, err := audio.DecodeWAV(b); err != nil || len(p.Samples) != 16000 {
			t.Errorf("audio step %d: %v", e.Step, err)
		}
	}
}
