package render

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

// The every-run scalars page carries its runs' hyperparameters for the
// Group by list, each run's path below its session's run beside them;
// past a quarter of the page's budget it leaves them out and says so.
func TestScalarsPageRunHParamsWithinBudget(t *testing.T) {
	rep := &model.Report{}
	session := &model.Run{Name: "trial", HParams: &model.HParams{Sessions: []*model.Session{{Start: model.SessionStart{
		HParams: map[string]model.HParamValue{"lr": {Kind: model.NumberValue, Number: 0.01}, "opt": {Kind: model.StringValue, Str: strings.Repeat("x", 300)}}}}}}}
	for i := range 60 {
		session.HParams.Sessions[0].Start.HParams[fmt.Sprintf("h%02d", i)] = model.HParamValue{Kind: model.StringValue, Str: strings.Repeat("y", 190)}
	}
	rep.Runs = append(rep.Runs, session)
	for _, name := range []string{"trial/train", "trial/validation"} {
		rep.Runs = append(rep.Runs, &model.Run{Name: name, Scalars: []*model.Scalar{{Tag: "loss", Points: []model.Point{{Step: 1, Value: 1}}}}})
	}
	p, err := newReport(rep, Options{}).scalarsPage(false)
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Names   []string
		HParams []struct {
			Name   string
			Values []any
		}
		Within []string
	}
	if err := json.Unmarshal([]byte(p.RunHParams), &table); err != nil {
		t.Fatalf("%v: %s", err, p.RunHParams)
	}
	if len(table.Names) != 2 || len(table.HParams) != 62 || table.HParams[60].Name != "lr" || table.HParams[60].Values[1] != 0.01 {
		t.Errorf("run table %+v", table)
	}
	if v := table.HParams[61].Values[0].(string); len(v) > maxHParamText+len("…") {
		t.Errorf("a value of %d bytes kept whole", len(v))
	}
	if strings.Join(table.Within, ",") != "train,validation" {
		t.Errorf("within %q, want train and validation", table.Within)
	}
	if p.inlined(0) < len(p.RunHParams) {
		t.Error("the page's size leaves out its run table")
	}

	// A budget the page fits in, under four times the table.
	budget := 4*len(p.RunHParams) - 1
	if p.inlined(pageFrameBytes)-len(p.RunHParams) > budget {
		t.Fatalf("the test's table (%d bytes) is too small for a page of %d", len(p.RunHParams), p.inlined(pageFrameBytes))
	}
	small, err := newReport(rep, Options{MaxPageBytes: budget}).scalarsPage(false)
	if err != nil {
		t.Fatal(err)
	}
	if small.Sweep != nil || small.RunHParams != "" || !strings.Contains(small.HParamsNote, "Group by hyperparameter") {
		t.Errorf("past a quarter of the budget: table %d bytes, note %q", len(small.RunHParams), small.HParamsNote)
	}
}
