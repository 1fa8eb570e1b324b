package render

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// sweepReport builds runs x sessions sessions; hps(run, s) and
// metrics(run, s) name each session's keys, and declared metrics are
// declared by the first run's experiment.
func sweepReport(runs, sessions int, hps, metrics func(run, s int) []string, declared int) *model.Report {
	rep := &model.Report{}
	for i := range runs {
		run := &model.Run{Name: fmt.Sprintf("run%04d", i), HParams: &model.HParams{}}
		if i == 0 && declared > 0 {
			x := &model.Experiment{}
			for m := range declared {
				x.Metrics = append(x.Metrics, model.MetricInfo{Tag: fmt.Sprintf("declared%05d", m)})
			}
			run.HParams.Experiment = x
		}
		for s := range sessions {
			ss := &model.Session{Start: model.SessionStart{HParams: map[string]model.HParamValue{}}, Metrics: map[string]model.MetricValue{}}
			for k, name := range hps(i, s) {
				ss.Start.HParams[name] = model.HParamValue{Kind: model.NumberValue, Number: float64(k)}
			}
			for k, name := range metrics(i, s) {
				ss.Metrics[name] = model.MetricValue{Value: float64(k)}
			}
			run.HParams.Sessions = append(run.HParams.Sessions, ss)
		}
		rep.Runs = append(rep.Runs, run)
	}
	return rep
}

func keys(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%04d", prefix, i)
	}
	return out
}

// hparamsOutputs renders the HParams page and data/hparams.json of rep,
// and returns them with data/index.json's errors and the bytes allocated.
func hparamsOutputs(t *testing.T, rep *model.Report) (page hparamsPage, data hparamsJSON, notes []dataNote, alloc uint64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	r := newReport(rep, Options{})
	p, err := r.hparamsPage()
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	d, err := r.hparamsData(func(f file) error {
		if f.name == "data/hparams.json" {
			out = f.data
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	t.Logf("%v, %d MB allocated, data/hparams.json %d KB", time.Since(start).Round(time.Millisecond), (after.TotalAlloc-before.TotalAlloc)>>20, len(out)>>10)
	if err := json.Unmarshal(out, &data); err != nil {
		t.Fatal(err)
	}
	return *p, data, d.notes, after.TotalAlloc - before.TotalAlloc
}

// TestHParamsBudgets renders the inputs that made the HParams page
// explode (sessions with keys of their own, an experiment declaring
// thousands of metrics, thousands of sessions in one run) and checks that
// the page and the data file keep within their budgets of columns and
// cells, keep the columns most sessions have, and say what they leave out;
// and that a real sweep is kept whole.
func TestHParamsBudgets(t *testing.T) {
	none := func(int, int) []string { return nil }
	cases := []struct {
		name                       string
		rep                        *model.Report
		cutH, cutM                 int
		pageSessions, dataSessions int
		commonH                    string // a column every session has, which must be kept
	}{
		{name: "250 runs x 250 keys of their own",
			rep: sweepReport(250, 1, func(run, _ int) []string {
				return append(keys(fmt.Sprintf("r%04d-", run), 250), "lr")
			}, none, 0),
			cutH: 250*250 + 1 - maxHParamColumns, pageSessions: 250, dataSessions: 250, commonH: "lr"},
		{name: "20,000 declared metrics, 500 sessions",
			rep: sweepReport(500, 1, func(int, int) []string { return []string{"lr"} },
				func(int, int) []string { return []string{"declared19999"} }, 20000),
			cutM: 20000 - maxMetricColumns, pageSessions: 500, dataSessions: 500, commonH: "lr"},
		{name: "3,000 sessions in one run, a key each",
			rep:  sweepReport(1, 3000, func(_, s int) []string { return []string{fmt.Sprintf("k%05d", s), "lr"} }, none, 0),
			cutH: 3001 - maxHParamColumns, pageSessions: maxPageCells / maxHParamColumns, dataSessions: 3000, commonH: "lr"},
		{name: "the data file's budget of cells, filled with nulls",
			rep:  sweepReport(10000, 1, func(int, int) []string { return []string{"lr"} }, none, 400),
			cutM: 400 - maxMetricColumns, pageSessions: maxPageCells / (1 + maxMetricColumns), dataSessions: maxDataCells / (1 + maxMetricColumns), commonH: "lr"},
		{name: "a real sweep",
			rep: sweepReport(50, 10, func(int, int) []string { return keys("hp", 40) },
				func(int, int) []string { return keys("metric", 30) }, 0),
			pageSessions: 500, dataSessions: 500, commonH: "hp0000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			page, data, notes, alloc := hparamsOutputs(t, c.rep)
			cols := len(data.HParams) + len(data.Metrics)
			if len(data.HParams) > maxHParamColumns || len(data.Metrics) > maxMetricColumns || cols*len(data.Sessions) > maxDataCells {
				t.Errorf("data file: %d + %d columns, %d sessions", len(data.HParams), len(data.Metrics), len(data.Sessions))
			}
			// Past hparamsTableRows sessions the table is drawn from the
			// page's data, a page of rows at a time.
			rows := len(page.Rows)
			if page.Paged {
				var pd hparamsPageJSON
				if err := json.Unmarshal([]byte(page.Data), &pd); err != nil {
					t.Fatal(err)
				}
				if rows != 0 || len(pd.Sessions) <= hparamsTableRows {
					t.Errorf("paged: %d rows written, %d sessions in the data", rows, len(pd.Sessions))
				}
				rows = len(pd.Sessions)
			}
			if len(page.HParams)+len(page.Metrics) != cols || rows*cols > maxPageCells {
				t.Errorf("page: %d + %d columns, %d rows", len(page.HParams), len(page.Metrics), rows)
			}
			if rows != c.pageSessions || len(data.Sessions) != c.dataSessions {
				t.Errorf("page shows %d sessions, data file %d; want %d and %d", rows, len(data.Sessions), c.pageSessions, c.dataSessions)
			}
			if !contains(page.HParams, c.commonH) {
				t.Errorf("the column every session has, %s, is left out", c.commonH)
			}
			if c.name == "20,000 declared metrics, 500 sessions" && !contains(page.Metrics, "declared19999") {
				t.Error("the metric every session has a value for is left out")
			}
			// Every cell of the data file is built and encoded: the memory
			// is bounded by bounding the cells.
			if alloc > 1<<30 {
				t.Errorf("%d MB allocated", alloc>>20)
			}
			cut := c.cutH+c.cutM > 0 || c.pageSessions < c.dataSessions
			if !cut {
				if page.Cut != "" || data.Omitted != nil || len(notes) != 0 {
					t.Errorf("nothing is cut, but the page says %q, the data file %+v, the index %+v", page.Cut, data.Omitted, notes)
				}
				return
			}
			if page.Cut == "" {
				t.Error("the page does not say what it leaves out")
			}
			if c.cutH > 0 && !strings.Contains(page.Cut, result.FormatCount(c.cutH)+" hyperparameter columns") ||
				c.cutM > 0 && !strings.Contains(page.Cut, result.FormatCount(c.cutM)+" metric columns") {
				t.Errorf("page note %q does not count the columns left out", page.Cut)
			}
			if c.pageSessions < c.dataSessions && !strings.Contains(page.Cut, "first "+result.FormatCount(c.pageSessions)+" sessions") {
				t.Errorf("page note %q does not say how many sessions it shows", page.Cut)
			}
			if c.cutH+c.cutM > 0 {
				if o := data.Omitted; o == nil || o.HParams != c.cutH || o.Metrics != c.cutM {
					t.Errorf("data file omitted %+v, want %d and %d columns", o, c.cutH, c.cutM)
				}
				if len(notes) != 1 || !strings.Contains(notes[0].Error, "leaves out") {
					t.Errorf("data/index.json notes %+v", notes)
				}
			}
		})
	}
}

// TestKeepColumnsIsDeterministic checks the choice of columns past the
// budget: most sessions first, then by name, in the order given.
func TestKeepColumnsIsDeterministic(t *testing.T) {
	names := []string{"d", "c", "b", "a"}
	count := map[string]int{"a": 1, "b": 3, "c": 1, "d": 2}
	got := keepColumns(names, 3, func(f func(string)) {
		for k, n := range count {
			for range n {
				f(k)
			}
		}
	})
	if strings.Join(got, ",") != "d,b,a" {
		t.Errorf("kept %v, want [d b a]", got)
	}
}
