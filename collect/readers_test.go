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

// TestReaderTable checks the reader table against itself and what the
// repository holds: what an entry's rules find it reads (a record file
// with its record function, a side file with its finish function), and
// what it reads it finds (an entry with a record function has a record
// rule, one with a finish function a rule); no two rules give one kind,
// so that each kind discover gives is read by exactly one entry; every
// entry's sections of docs/FORMATS.md, fixtures and fuzz targets exist;
// the files read beside a run are ones IsInput counts.
func TestReaderTable(t *testing.T) {
	byKind := map[discover.Kind]string{}
	for _, r := range readers {
		var records, sides int
		for _, d := range r.detect {
			if by, ok := byKind[d.Kind]; ok {
				t.Errorf("kind %q is given by rules of %s and %s", d.Kind, by, r.name)
			}
			byKind[d.Kind] = r.name
			if d.Kind == "" || d.Match == nil || (d.Sniff != nil) != (d.SniffBytes > 0) {
				t.Errorf("%s: rule %q: a kind, a Match, and Sniff with SniffBytes, each needed", r.name, d.Kind)
			}
			if d.Side {
				sides++
			} else {
				records++
			}
		}
		switch {
		case records > 0 && r.record == nil:
			t.Errorf("%s finds record files but has no record function to read them", r.name)
		case sides > 0 && r.finish == nil:
			t.Errorf("%s finds side files but has no finish function to read them", r.name)
		case r.record != nil && records == 0:
			t.Errorf("%s reads records but finds no record file", r.name)
		case r.finish != nil && len(r.detect) == 0:
			t.Errorf("%s finishes but finds no file", r.name)
		case r.format != "" && records == 0:
			t.Errorf("%s names its files %q but finds no record file", r.name, r.format)
		}
	}
	for _, k := range []discover.Kind{kindEmpty, kindProfileEmpty} {
		if readerOf(k) == nil {
			t.Errorf("readFile names kind %q, which no rule gives", k)
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
			if !Detection().IsInput(name) {
				t.Errorf("%s reads %s beside a run's files, which IsInput does not count", r.name, name)
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
