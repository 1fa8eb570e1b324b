package discover

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestIsEventFile(t *testing.T) {
	tests := []struct {
		dir, name string
		want      bool
	}{
		{".", "events.out.tfevents.1585754872.host.111180.151.v2", true},
		{".", "events.out.tfevents.1526606991.NIGSA774680", true},
		{"train", "events.out.tfevents.1585754873.host.profile-empty", true},
		{".", "events.out.FX50-PRO", true},                            // TS-VIS
		{".", "hparams.events.out.FX50-PRO", true},                    // TS-VIS hparams
		{".", "projector.events.out.201130-120000.h", true},           // TS-VIS projector
		{"run/event", "event.1600000000.log", true},                   // OneFlow
		{"run", "event.1600000000.log", false},                        // not in an event/ directory
		{".", "train.out.events.summary.1600000000.0.host_MS", false}, // MindSpore: another format
		{".", "checkpoint", false},
		{".", "projector_config.pbtxt", false},
		{".", "hparams.yaml", false},
	}
	for _, tc := range tests {
		if got := IsEventFile(tc.dir, tc.name); got != tc.want {
			t.Errorf("IsEventFile(%q, %q) = %v, want %v", tc.dir, tc.name, got, tc.want)
		}
	}
}

func TestDiscover(t *testing.T) {
	root := t.TempDir()
	write := func(rel string, size int) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("events.out.tfevents.2.host", 10)
	write("events.out.tfevents.1.host", 10)
	write("a/train/events.out.tfevents.5.host.profile-empty", 40)
	write("a/train/events.out.tfevents.5.host.v2", 0)
	write("a/notes.txt", 5)
	write("of/event/event.100.log", 10)
	runs, err := Discover(context.Background(), root, func(string, error) {})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		for _, f := range r.Files {
			got = append(got, r.Path+" "+f.Rel+" "+f.Kind.String())
		}
	}
	want := []string{
		". events.out.tfevents.1.host events",
		". events.out.tfevents.2.host events",
		"a/train a/train/events.out.tfevents.5.host.profile-empty profile-empty",
		"a/train a/train/events.out.tfevents.5.host.v2 empty",
		"of of/event/event.100.log events",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Discover:\n%q\nwant\n%q", got, want)
	}
	// A single file is a run of its own.
	runs, err = Discover(context.Background(), filepath.Join(root, "events.out.tfevents.1.host"), func(string, error) {})
	if err != nil || len(runs) != 1 || runs[0].Path != "." || len(runs[0].Files) != 1 {
		t.Errorf("Discover(file) = %+v, %v", runs, err)
	}
	if _, err := Discover(context.Background(), filepath.Join(root, "missing"), func(string, error) {}); err == nil {
		t.Errorf("Discover of a missing path succeeded")
	}
}
