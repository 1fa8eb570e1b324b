package render

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
)

// csvInputs are the inputs of the CSV tests: the writers' fixtures and
// readers' own (restarts, MindSpore, Visdom, a sweep) and the corpus
// folders with hyperparameters.
func csvInputs(t *testing.T) map[string]string {
	in := map[string]string{}
	for name, dir := range bundleInputs(t) {
		switch {
		case !strings.HasPrefix(dir, corpus(t)),
			strings.Contains(name, "hparams"), name == "lightning-tbx-sweep":
			in[name] = dir
		}
	}
	return in
}

// readCSV parses a CSV file of the site, checking its header.
func readCSV(t *testing.T, name string, b []byte, header ...string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(rows) == 0 || len(header) > 0 && strings.Join(rows[0], ",") != strings.Join(header, ",") {
		t.Fatalf("%s: header %q, want %q", name, rows[:min(len(rows), 1)], header)
	}
	return rows[1:]
}

// csvNumber is what a CSV cell holds for a value the JSON data files
// write as v (a json.Number, or "NaN", "Infinity" or "-Infinity").
func csvNumber(v any) string { return fmt.Sprint(v) }

// TestCSVHoldsTheDataFilesPoints: data/scalars.csv holds, row for row,
// every point of the scalar bundles (the line's, then each superseded
// attempt's, numbered), values the same text, steps and wall times the
// same numbers; data/hparams.csv holds every session of hparams.json,
// cell for cell.
func TestCSVHoldsTheDataFilesPoints(t *testing.T) {
	points, superseded, sessions := 0, 0, 0
	for name, dir := range csvInputs(t) {
		t.Run(name, func(t *testing.T) {
			if _, err := os.Stat(dir); err != nil {
				t.Skip(err)
			}
			rep := collectDir(t, name, dir)
			defer rep.Close()
			files := filesByName(t, newReport(rep, Options{DataCSV: true}, analysis.Options{}))
			var index dataIndex
			if err := json.Unmarshal(files["data/index.json"], &index); err != nil {
				t.Fatal(err)
			}
			// The bundles' points as rows, in the order the CSV writes them.
			var want [][]string
			for _, run := range rep.Runs {
				rel, ok := index.Bundles[run.Name]
				if !ok {
					continue
				}
				doc := readRunBundle(t, rel, files["data/"+rel], run.Name)
				for _, sc := range run.Scalars {
					c, ok := doc.Scalars[sc.Tag]
					if !ok {
						continue
					}
					add := func(c bundleColumns, attempt string) {
						d := c.decode(t)
						for i := range d.steps {
							want = append(want, []string{run.Name, sc.Tag, strconv.FormatInt(d.steps[i], 10),
								strconv.FormatFloat(d.walls[i], 'g', -1, 64), csvNumber(d.values[i]), attempt})
						}
					}
					add(c, "")
					for _, raw := range doc.Superseded[sc.Tag] {
						var a bundleColumns
						dec := json.NewDecoder(bytes.NewReader(raw))
						dec.UseNumber()
						if err := dec.Decode(&a); err != nil || a.Attempt == nil {
							t.Fatalf("%s: superseded %s: %v", rel, raw, err)
						}
						add(a, strconv.Itoa(*a.Attempt))
						superseded += a.Count
					}
				}
			}
			got := readCSV(t, scalarsCSVFile, files[scalarsCSVFile], "run", "tag", "step", "wall_time", "value", "attempt")
			if len(got) != len(want) {
				t.Fatalf("%s: %d rows, the bundles hold %d points", scalarsCSVFile, len(got), len(want))
			}
			for i, w := range want {
				g := got[i]
				wall, err := strconv.ParseFloat(g[3], 64)
				if err != nil || math.Float64bits(wall) != math.Float64bits(mustFloat(t, w[3])) {
					t.Errorf("row %d: wall time %q, the bundle's %s", i+2, g[3], w[3])
				}
				g[3] = w[3]
				if strings.Join(g, "\x00") != strings.Join(w, "\x00") {
					t.Errorf("row %d = %q, want %q", i+2, g, w)
				}
			}
			points += len(want)

			hp, ok := files["data/hparams.json"]
			if !ok {
				if _, ok := files[hparamsCSVFile]; ok {
					t.Errorf("%s written without hparams.json", hparamsCSVFile)
				}
				return
			}
			var j struct {
				HParams, Metrics []struct{ Name string }
				Sessions         []struct {
					Run, Group, Status string
					HParams, Metrics   []any
				}
			}
			dec := json.NewDecoder(bytes.NewReader(hp))
			dec.UseNumber()
			if err := dec.Decode(&j); err != nil {
				t.Fatal(err)
			}
			rows := readCSV(t, hparamsCSVFile, files[hparamsCSVFile])
			if len(rows) != len(j.Sessions) {
				t.Fatalf("%s: %d rows, hparams.json %d sessions", hparamsCSVFile, len(rows), len(j.Sessions))
			}
			for i, s := range j.Sessions {
				w := []string{s.Run, s.Group, s.Status}
				for _, v := range append(s.HParams, s.Metrics...) {
					switch v := v.(type) {
					case nil:
						w = append(w, "")
					case json.Number:
						w = append(w, v.String())
					default:
						w = append(w, csvText(fmt.Sprint(v)))
					}
				}
				if strings.Join(rows[i], "\x00") != strings.Join(w, "\x00") {
					t.Errorf("%s row %d = %q, want %q", hparamsCSVFile, i+2, rows[i], w)
				}
			}
			sessions += len(rows)
		})
	}
	t.Logf("%d points (%d superseded) and %d sessions compared", points, superseded, sessions)
	if points < 1000 || superseded == 0 || sessions < 10 {
		t.Errorf("only %d points, %d superseded, %d sessions: are the inputs complete?", points, superseded, sessions)
	}
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestCSVCellsAreNeitherFormulasNorBroken: names from a log that a
// spreadsheet would run as formulas get a leading ', names with commas,
// quotes and line breaks are quoted, and a name a metric and a
// hyperparameter share is two columns told apart.
func TestCSVCellsAreNeitherFormulasNorBroken(t *testing.T) {
	rep := &model.Report{Runs: []*model.Run{{Name: `=HYPERLINK("http://x")`, Path: "a",
		Scalars: []*model.Scalar{{Tag: "loss, \"train\"\nall", Points: []model.Point{{WallTime: 1.5, Step: 1, Value: math.Inf(-1)}, {WallTime: 2, Step: 2, Value: -0.25}}}}}}}
	var b bytes.Buffer
	if err := newReport(rep, Options{}).writeScalarsCSV(&b); err != nil {
		t.Fatal(err)
	}
	got := readCSV(t, scalarsCSVFile, b.Bytes(), "run", "tag", "step", "wall_time", "value", "attempt")
	want := [][]string{{`'=HYPERLINK("http://x")`, "loss, \"train\"\nall", "1", "1.5", "-Infinity", ""},
		{`'=HYPERLINK("http://x")`, "loss, \"train\"\nall", "2", "2", "-0.25", ""}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("scalars.csv rows = %q, want %q", got, want)
	}

	j := hparamsJSON{HParams: []hparamsColumn{{"loss", true}, {"status", false}}, Metrics: []hparamsColumn{{"loss", true}},
		Sessions: []hparamsSession{{Run: "r", Status: "success", HParams: []any{nil, "+1"}, Metrics: []any{nil}}}}
	var hb bytes.Buffer
	if err := writeHParamsCSV(&hb, j); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&hb).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if want := "[[run group status loss (hparam) status (hparam) loss (metric)] [r  success  '+1 ]]"; fmt.Sprint(rows) != want {
		t.Errorf("hparams.csv = %q, want %s", rows, want)
	}
}

// TestCSVReadsBackInPython: Python's csv module reads data/scalars.csv
// into the values, steps and wall times json reads from the bundles (the
// reference reader: `make test` sets TRAINREPORT_PYTHON).
func TestCSVReadsBackInPython(t *testing.T) {
	py := os.Getenv("TRAINREPORT_PYTHON")
	if py == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("TRAINREPORT_PYTHON is not set: run `make test`")
		}
		t.Skip("TRAINREPORT_PYTHON is not set; `make test` sets it")
	}
	rep := collectDir(t, "mindspore", filepath.Join("..", "collect", "testdata", "mindspore"))
	defer rep.Close()
	dir := t.TempDir()
	for name, b := range filesByName(t, newReport(rep, Options{DataCSV: true}, analysis.Options{})) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const script = `
import csv, json, math, sys
d = sys.argv[1]
index = json.load(open(d + "/data/index.json"))
want = {}
for run, rel in index["scalar_bundles"].items():
    doc = json.loads(open(d + "/data/" + rel).read().split("\n")[1])["runs"][run]
    def add(tag, s, attempt):
        n = s["count"]
        st = s["step"]
        steps = [st["first"] + i * st["stride"] for i in range(n)] if isinstance(st, dict) else st
        w = s["wall_time"]
        if isinstance(w, dict):
            acc, walls = w["base"], []
            for x in w["delta"]:
                acc += x
                walls.append(acc / 10 ** w["scale"])
        else:
            walls = w
        for i in range(n):
            want[(run, tag, steps[i], attempt)] = (walls[i], float(s["value"][i]))
    for tag, s in doc["scalars"].items():
        add(tag, s, "")
    for tag, attempts in doc.get("superseded", {}).items():
        for a in attempts:
            add(tag, a, str(a["attempt"]))
got = {}
with open(d + "/data/scalars.csv", newline="") as f:
    for r in csv.DictReader(f):
        got[(r["run"], r["tag"], int(r["step"]), r["attempt"])] = (float(r["wall_time"]), float(r["value"]))
def same(a, b):
    return a == b or (math.isnan(a) and math.isnan(b))
bad = [k for k in want if k not in got or not all(same(x, y) for x, y in zip(want[k], got[k]))]
print(len(want), len(got), len(bad))
`
	out, err := exec.Command(py, "-c", script, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v: %s", err, out)
	}
	var want, got, bad int
	if _, err := fmt.Sscan(string(out), &want, &got, &bad); err != nil || want == 0 || got != want || bad != 0 {
		t.Errorf("python read %s", out)
	}
}
