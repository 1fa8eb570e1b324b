package discover

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/trainreport/trainreport/internal/testsupport"
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

func TestIsMindSpore(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"events.out.events.summary.1700000000.0.host_MS", true},
		{"train.out.events.summary.1700000000.host_MS", true}, // older: no device id
		{"events.out.events.summary.1700000000.0.host_lineage", true},
		{"events.out.events.summary.1700000000.0.host_custom", true}, // a file_suffix of the user's
		{"events.out.events.summary.1700000000.0.host_explain", false},
		{"events.out.events.summary.host_MS", false},
		{"events.out.events.summary.1700000000", false},
		{"summary.1700000000.csv", false},
		{"events.out.tfevents.1700000000.host", false},
	}
	for _, tc := range tests {
		if got := isMindSpore(tc.name); got != tc.want {
			t.Errorf("isMindSpore(%q) = %v, want %v", tc.name, got, tc.want)
		}
		if got := IsInput("run/" + tc.name); tc.want && !got {
			t.Errorf("IsInput(%q) = false", tc.name)
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
	// MindSpore: a summary file and its lineage file, MindInsight's
	// summary/rank_N/ layout, an empty file, and an explainer file
	// (not read).
	write("ms/events.out.events.summary.1700000000.0.host_MS", 10)
	write("ms/events.out.events.summary.1700000000.0.host_lineage", 10)
	write("ms/summary/rank_1/events.out.events.summary.1700000001.1.host_MS", 0)
	write("ms/events.out.events.summary.1700000000.0.host_explain", 10)
	write("ms/summary.1.csv", 10)
	runs, err := Discover(context.Background(), testsupport.OpenDir(t, root), func(string, error) {})
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
		"ms ms/events.out.events.summary.1700000000.0.host_MS mindspore",
		"ms ms/events.out.events.summary.1700000000.0.host_lineage mindspore-lineage",
		"ms/summary/rank_1 ms/summary/rank_1/events.out.events.summary.1700000001.1.host_MS mindspore",
		"of of/event/event.100.log events",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Discover:\n%q\nwant\n%q", got, want)
	}
	// A single file is a run of its own.
	runs, err = Single(testsupport.OpenDir(t, root), "events.out.tfevents.1.host")
	if err != nil || len(runs) != 1 || runs[0].Path != "." || len(runs[0].Files) != 1 {
		t.Errorf("Single = %+v, %v", runs, err)
	}
	if _, err := Single(testsupport.OpenDir(t, root), "missing"); err == nil {
		t.Errorf("Single of a missing file succeeded")
	}
}

func TestSideFileOf(t *testing.T) {
	tests := []struct {
		dir, name string
		kind      SideKind
		run       string
	}{
		{".", "projector_config.pbtxt", ProjectorConfig, "."},
		{"a/b", "projector_config.pbtxt", ProjectorConfig, "a/b"},
		{"plugins/org_tensorflow_tensorboard_projector", "projector_config.pbtxt", ProjectorConfig, "."},
		{"r/plugins/org_tensorflow_tensorboard_projector", "projector_config.pbtxt", ProjectorConfig, "r"},
		{"r/projector", "projector.1600000000.log", OneFlowEmbeddings, "r"},
		{"projector", "projector.gradit.1600000000.log", OneFlowExceptions, "."},
		{"r", "projector.1600000000.123456.v2", OneFlowEmbeddings, "r"},     // older OneFlow
		{"r", "projector.gradient.1600000000.5.v2", OneFlowExceptions, "r"}, // older OneFlow
		{"r", "projector.events.out.201130-120000.host", TSVISProjector, "r"},
		{"r", "projector.1600000000.log", 0, ""}, // not in a projector/ directory
		{"r/projector", "projector.gradit.x.log", 0, ""},
		{"r/projector", "projector.events.log", 0, ""},
		{"r", "projector_config.pbtxt.bak", 0, ""},
		{"r", "events.out.tfevents.1.host", 0, ""},
	}
	for _, tc := range tests {
		kind, run, ok := SideFileOf(tc.dir, tc.name)
		if ok != (tc.kind != 0) || kind != tc.kind || run != tc.run {
			t.Errorf("SideFileOf(%q, %q) = %v, %q, %v; want %v, %q", tc.dir, tc.name, kind, run, ok, tc.kind, tc.run)
		}
	}
}

func TestDiscoverSideFiles(t *testing.T) {
	root := t.TempDir()
	for _, rel := range []string{
		"projector_config.pbtxt", // PyTorch: at the root, no event file there
		"00000/default/tensors.tsv",
		"train/events.out.tfevents.1.host",
		"train/plugins/org_tensorflow_tensorboard_projector/projector_config.pbtxt",
		"of/event/event.100.log",
		"of/projector/projector.200.log",
		"of/projector/projector.gradit.100.log",
		"ts/projector.events.out.201130-120000.h",
	} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := Discover(context.Background(), testsupport.OpenDir(t, root), func(string, error) {})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		for _, f := range r.Files {
			got = append(got, r.Path+" "+f.Rel+" "+f.Kind.String())
		}
		for _, f := range r.Side {
			got = append(got, r.Path+" "+f.Rel+" "+f.Kind.String())
		}
	}
	want := []string{
		". projector_config.pbtxt projector-config",
		"of of/event/event.100.log events",
		"of of/projector/projector.200.log oneflow-embeddings",
		"of of/projector/projector.gradit.100.log oneflow-exceptions",
		"train train/events.out.tfevents.1.host events",
		"train train/plugins/org_tensorflow_tensorboard_projector/projector_config.pbtxt projector-config",
		"ts ts/projector.events.out.201130-120000.h events",
		"ts ts/projector.events.out.201130-120000.h tsvis-projector",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Discover:\n%q\nwant\n%q", got, want)
	}
}

// Event files that are links, FIFOs or in linked directories are not read,
// and each is named in a warning: a log directory may not reach outside
// itself, and a FIFO would block the reader.
func TestDiscoverRefusesLinksAndFIFOs(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "events.out.tfevents.9.secret")
	if err := os.WriteFile(secret, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "run"), 0o755)
	if err := os.WriteFile(filepath.Join(root, "run", "events.out.tfevents.1.host"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range []struct{ target, name string }{
		{secret, "run/events.out.tfevents.2.link"},
		{outside, "linked"},
		{"events.out.tfevents.1.host", "run/events.out.tfevents.3.inside"},
	} {
		if err := os.Symlink(l.target, filepath.Join(root, filepath.FromSlash(l.name))); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "run", "events.out.tfevents.4.fifo"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	var warned []string
	runs, err := Discover(context.Background(), testsupport.OpenDir(t, root), func(name string, err error) {
		warned = append(warned, name)
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		for _, f := range r.Files {
			got = append(got, f.Rel)
		}
	}
	if want := []string{"run/events.out.tfevents.1.host"}; !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	slices.Sort(warned)
	want := []string{"linked", "run/events.out.tfevents.2.link", "run/events.out.tfevents.3.inside", "run/events.out.tfevents.4.fifo"}
	if !slices.Equal(warned, want) {
		t.Errorf("warnings for %q, want %q", warned, want)
	}
}
