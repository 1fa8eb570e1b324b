package collect

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/discover"
	"github.com/trainreport/trainreport/internal/testsupport"
)

// The cases of the formats' detection rules (docs/FORMATS.md section 1),
// which discover applies as the reader table gives them (Detection).

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
		if got := isEventFile(tc.dir, tc.name); got != tc.want {
			t.Errorf("isEventFile(%q, %q) = %v, want %v", tc.dir, tc.name, got, tc.want)
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
		if got := Detection().IsInput("run/" + tc.name); tc.want && !got {
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
	runs, err := Detection().Discover(context.Background(), testsupport.OpenDir(t, root), func(string, error) {})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		for _, f := range r.Files {
			got = append(got, r.Path+" "+f.Rel+" "+string(f.Kind))
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
	runs, err = Detection().Single(testsupport.OpenDir(t, root), "events.out.tfevents.1.host")
	if err != nil || len(runs) != 1 || runs[0].Path != "." || len(runs[0].Files) != 1 {
		t.Errorf("Single = %+v, %v", runs, err)
	}
	if _, err := Detection().Single(testsupport.OpenDir(t, root), "missing"); err == nil {
		t.Errorf("Single of a missing file succeeded")
	}
}

// sideKindOf applies the table's side rules by name, first first, as
// Discover does, to a file named name in dir.
func sideKindOf(dir, name string) (discover.Kind, string, bool) {
	c := discover.Candidate{Rel: dir + "/" + name, Dir: dir, Name: name, Size: 1}
	for _, r := range Detection().Rules {
		if r.Side && r.Sniff == nil {
			if run, ok := r.Match(c); ok {
				return r.Kind, run, true
			}
		}
	}
	return "", "", false
}

func TestSideFileRules(t *testing.T) {
	tests := []struct {
		dir, name string
		kind      discover.Kind
		run       string
	}{
		{".", "projector_config.pbtxt", kindProjectorConfig, "."},
		{"a/b", "projector_config.pbtxt", kindProjectorConfig, "a/b"},
		{"plugins/org_tensorflow_tensorboard_projector", "projector_config.pbtxt", kindProjectorConfig, "."},
		{"r/plugins/org_tensorflow_tensorboard_projector", "projector_config.pbtxt", kindProjectorConfig, "r"},
		{"r/projector", "projector.1600000000.log", kindOneFlowEmbeddings, "r"},
		{"projector", "projector.gradit.1600000000.log", kindOneFlowExceptions, "."},
		{"r", "projector.1600000000.123456.v2", kindOneFlowEmbeddings, "r"},     // older OneFlow
		{"r", "projector.gradient.1600000000.5.v2", kindOneFlowExceptions, "r"}, // older OneFlow
		{"r/projector", "projector.gradient.1600000000.5.v2", kindOneFlowExceptions, "r/projector"},
		{"r", "projector.events.out.201130-120000.host", kindTSVISProjector, "r"},
		{"r", "projector.events.out.summary.1.h", "", ""}, // not an event file
		{"r", "projector.1600000000.log", "", ""},         // not in a projector/ directory
		{"r/projector", "projector.gradit.x.log", "", ""},
		{"r/projector", "projector.events.log", "", ""},
		{"r", "projector_config.pbtxt.bak", "", ""},
		{"r", "events.out.tfevents.1.host", "", ""},
	}
	for _, tc := range tests {
		kind, run, ok := sideKindOf(tc.dir, tc.name)
		if ok != (tc.kind != "") || kind != tc.kind || run != tc.run {
			t.Errorf("side rules (%q, %q) = %v, %q, %v; want %v, %q", tc.dir, tc.name, kind, run, ok, tc.kind, tc.run)
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
	runs, err := Detection().Discover(context.Background(), testsupport.OpenDir(t, root), func(string, error) {})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		for _, f := range r.Files {
			got = append(got, r.Path+" "+f.Rel+" "+string(f.Kind))
		}
		for _, f := range r.Side {
			got = append(got, r.Path+" "+f.Rel+" "+string(f.Kind))
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

// detectionCases are a file of every kind the table's rules find, and
// files near them that no rule takes: TestEveryRuleFindsItsFiles checks
// that each rule of the table has one, and that discovery gives each
// its kind and run.
var detectionCases = []struct {
	rel, content string
	kind         discover.Kind // "" for none
	run          string
}{
	{"tb/events.out.tfevents.1.host", "x", KindEvents, "tb"},
	{"tb/events.out.tfevents.2.host", "", kindEmpty, "tb"},
	{"tb/events.out.tfevents.3.host.profile-empty", "", kindProfileEmpty, "tb"},
	{"of/event/event.100.log", "x", KindEvents, "of"},
	{"of/projector/projector.200.log", "x", kindOneFlowEmbeddings, "of"},
	{"of/projector/projector.gradit.100.log", "x", kindOneFlowExceptions, "of"},
	{"pt/projector_config.pbtxt", "x", kindProjectorConfig, "pt"},
	{"ts/projector.events.out.201130-120000.h", "x", kindTSVISProjector, "ts"},
	{"ms/events.out.events.summary.1700000000.0.host_MS", "x", kindMindSpore, "ms"},
	{"ms/events.out.events.summary.1700000000.0.host_lineage", "x", kindMindSporeLineage, "ms"},
	// A name both MindSpore's and TensorBoard's rules take is MindSpore's.
	{"both/x.tfevents.events.summary.1700000000.0.host_MS", "x", kindMindSpore, "both"},
	{"ms/events.out.events.summary.1700000000.0.host_explain", "x", "", ""},
	{"vis/main.json", `{"jsons": {}, "reload": {}}`, kindVisdomEnv, "vis/main"},
	{"vis/replay.log", `["events", {"eid": "main"}]` + "\n", kindVisdomLog, "vis/replay"},
	{"vis/other.json", `{"a": 1}`, "", ""},
	{"vis/empty.json", "", "", ""},
	{"vis/notes.log", "started\n", "", ""},
	{"tb/hparams.yaml", "a: 1\n", "", ""}, // read beside, not discovered
}

// Every rule of the table finds its files: each has a case, and Discover
// gives each case its kind and run, read by the entry whose rule it is.
func TestEveryRuleFindsItsFiles(t *testing.T) {
	root := t.TempDir()
	for _, c := range detectionCases {
		p := filepath.Join(root, filepath.FromSlash(c.rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := Detection().Discover(context.Background(), testsupport.OpenDir(t, root), func(string, error) {})
	if err != nil {
		t.Fatal(err)
	}
	type found struct {
		kind discover.Kind
		run  string
	}
	got := map[string][]found{}
	for _, r := range runs {
		for _, f := range r.Files {
			got[f.Rel] = append(got[f.Rel], found{f.Kind, r.Path})
		}
		for _, f := range r.Side {
			got[f.Rel] = append(got[f.Rel], found{f.Kind, r.Path})
		}
	}
	for _, c := range detectionCases {
		fs := got[c.rel]
		if c.kind == "" {
			if len(fs) != 0 {
				t.Errorf("%s: found as %v, want by no rule", c.rel, fs)
			}
			continue
		}
		if !slices.Contains(fs, found{c.kind, c.run}) {
			t.Errorf("%s: found as %v, want %s in run %s", c.rel, fs, c.kind, c.run)
		}
	}
	for _, r := range Detection().Rules {
		if !slices.ContainsFunc(detectionCases, func(c struct {
			rel, content string
			kind         discover.Kind
			run          string
		}) bool {
			return c.kind == r.Kind
		}) {
			t.Errorf("rule %s has no case in detectionCases", r.Kind)
		}
	}
}

// A file given alone is what Discover would take it for by its name, else
// a Visdom file by its content, else an event file, whatever its name; the
// projector's side rules do not apply (nothing is read beside it).
func TestSingleFile(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"events.out.tfevents.1.host": "x",
		"run.bin":                    "x",
		"empty.bin":                  "",
		"x.profile-empty":            "",
		"main.json":                  `{"jsons": {}, "reload": {}}`,
		"replay.log":                 `["events", {"eid": "main"}]` + "\n",
		"other.json":                 `{"a": 1}`,
		"events.out.events.summary.1.0.host_lineage": "x",
		"projector_config.pbtxt":                     "x",
		"x.events.summary.1.0.host.log":              `["events", {"eid": "main"}]` + "\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]string{
		"events.out.tfevents.1.host": ". events",
		"run.bin":                    ". events",
		"empty.bin":                  ". empty",
		"x.profile-empty":            ". profile-empty",
		"main.json":                  "main visdom-env",
		"replay.log":                 "replay visdom-log",
		"other.json":                 ". events",
		"events.out.events.summary.1.0.host_lineage": ". mindspore-lineage",
		"projector_config.pbtxt":                     ". events",
		// MindSpore's by its name, as Discover takes it, though its
		// first bytes are a Visdom replay log's.
		"x.events.summary.1.0.host.log": ". mindspore",
	} {
		runs, err := Detection().Single(testsupport.OpenDir(t, root), name)
		if err != nil {
			t.Errorf("Single(%s): %v", name, err)
			continue
		}
		var got []string
		for _, r := range runs {
			for _, f := range r.Files {
				got = append(got, r.Path+" "+string(f.Kind))
			}
			for _, f := range r.Side {
				got = append(got, r.Path+" "+string(f.Kind))
			}
		}
		if !slices.Equal(got, []string{want}) {
			t.Errorf("Single(%s) = %q, want %q", name, got, want)
		}
	}
}
