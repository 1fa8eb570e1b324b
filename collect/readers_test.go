package collect

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/discover"
	pb "github.com/trainreport/trainreport/collect/eventpb"
)

// TestReaderTable checks the reader table against what discover tells
// apart and what the repository holds: every kind of file discover gives
// is read by exactly one entry, with the function its kind needs; every
// entry's sections of docs/FORMATS.md, fixtures and fuzz targets exist; the
// files read beside a run are ones discover counts as inputs.
func TestReaderTable(t *testing.T) {
	for k := discover.Kind(0); k.String() != fmt.Sprintf("Kind(%d)", int(k)); k++ {
		var by []string
		for _, r := range readers {
			if slices.Contains(r.files, k) {
				by = append(by, r.name)
				if r.record == nil {
					t.Errorf("%s reads %s files but has no record function", r.name, k)
				}
			}
		}
		if len(by) != 1 {
			t.Errorf("discover's kind %s is read by %d entries %q, not 1", k, len(by), by)
		}
	}
	for k := discover.SideKind(1); k.String() != fmt.Sprintf("SideKind(%d)", int(k)); k++ {
		var by []string
		for _, r := range readers {
			if slices.Contains(r.side, k) {
				by = append(by, r.name)
				if r.finish == nil {
					t.Errorf("%s reads %s files but has no finish function", r.name, k)
				}
			}
		}
		if len(by) != 1 {
			t.Errorf("discover's side kind %s is read by %d entries %q, not 1", k, len(by), by)
		}
	}
	formats, err := os.ReadFile("../docs/FORMATS.md")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, r := range readers {
		if names[r.name] {
			t.Errorf("two entries named %s", r.name)
		}
		names[r.name] = true
		if len(r.sections) == 0 || len(r.fixtures) == 0 || len(r.fuzz) == 0 {
			t.Errorf("%s: sections %v, fixtures %v, fuzz targets %v: each needs one at least", r.name, r.sections, r.fixtures, r.fuzz)
		}
		for _, n := range r.sections {
			if !strings.Contains(string(formats), fmt.Sprintf("\n## %d. ", n)) {
				t.Errorf("%s: docs/FORMATS.md has no section %d", r.name, n)
			}
		}
		for _, dir := range r.fixtures {
			if entries, err := os.ReadDir(dir); err != nil || len(entries) == 0 {
				t.Errorf("%s: fixtures %s: none (%v)", r.name, dir, err)
			}
		}
		for _, f := range r.fuzz {
			pkg, target, _ := strings.Cut(f, " ")
			if !hasFuzzTarget(t, pkg, target) {
				t.Errorf("%s: no fuzz target %s in collect/%s", r.name, target, pkg)
			}
		}
		for _, name := range r.beside {
			if !discover.IsInput(name) {
				t.Errorf("%s reads %s beside a run's files, which discover.IsInput does not count", r.name, name)
			}
		}
	}
}

// hasFuzzTarget reports whether a test file of the package directory dir
// (relative to collect/) declares the fuzz target name.
func hasFuzzTarget(t *testing.T, dir, name string) bool {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "\nfunc "+name+"(f *testing.F) {") {
			return true
		}
	}
	return false
}

// TestReadersFinishInTableOrder reads one run holding a file of each
// finishing format, each bad in a way that warns: the warnings come in the
// order of the table (projector, then the TensorBoard entry's
// hparams.yaml, then Visdom). The event file holds no restart: a run with
// a restart and Visdom scalars makes a model CheckValid refuses (its
// attempts count only the event files' points), as it did before the table.
func TestReadersFinishInTableOrder(t *testing.T) {
	replay, err := os.ReadFile("visdom/testdata/replay.log")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, []file{
		{"r/" + ev100, eventFile(t, append([]*pb.Event{fileVersion()}, losses(0, 1, 2)...)...)},
		{"r/projector_config.pbtxt", []byte(`embeddings { tensor_name: "t" tensor_path: "missing.tsv" }`)},
		{"r/hparams.yaml", []byte("- a\n")},
		{"r.log", replay},
	})
	rep := collectDir(t, dir, Options{})
	run := findRun(rep, "r")
	if run == nil {
		t.Fatal("no run r")
	}
	var order []string
	for _, w := range run.Warnings {
		if len(order) == 0 || order[len(order)-1] != w.File {
			order = append(order, w.File)
		}
	}
	if want := []string{"r/projector_config.pbtxt", "r/hparams.yaml", "r.log"}; !slices.Equal(order, want) {
		t.Errorf("warnings by file %q, want %q (the table's order)", order, want)
	}
	if len(run.Visdom) == 0 {
		t.Error("the Visdom replay log was not read")
	}
}
