package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// TestGitHubAnnotationsNameEachFinding: --annotations github prints, on
// stdout, an ::error for the failed gate and a ::warning for the anomaly
// and for each truncated file, each on the file as the workspace names it.
func TestGitHubAnnotationsNameEachFinding(t *testing.T) {
	root := corpusRoot(t)
	t.Setenv("GITHUB_WORKSPACE", root)
	var out, errb bytes.Buffer
	site := filepath.Join(t.TempDir(), "site")
	code := run(context.Background(), []string{"-quiet", "-o", site, "--annotations", "github", "--fail-on", "any(warning)",
		filepath.Join(root, "tf1-estimator-truncated")}, &out, &errb)
	if code != exitGate {
		t.Fatalf("exit %d, want %d: %s", code, exitGate, errb.String())
	}
	const events = "tf1-estimator-truncated/model_dir/events.out.tfevents."
	want := []string{
		"::error title=trainreport%3A gate failed::any(warning): holds for the report (warning: 2)",
		"::warning file=tf1-estimator-truncated/model_dir,title=trainreport%3A run.damaged_files::run \"model_dir\": has 2 files not read whole",
		"::warning file=" + events + "1560535679.C02TJ0GKGTDY,title=trainreport%3A log file::offset 857490: truncated record",
		"::warning file=" + events + "1560537424.C02TJ0GKGTDY,title=trainreport%3A log file::offset 857490: truncated record",
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("stdout has %d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want it to start %q", i+1, lines[i], w)
		}
	}
}

// TestAnnotationsKeepALogsTextInOneCommand: what a log names (a tag with a
// newline, a file name with "," or ":") cannot end the command or start
// another, and a sweep's thousands of findings print a bounded number of
// lines, the last saying how many were left out.
func TestAnnotationsKeepALogsTextInOneCommand(t *testing.T) {
	a := annotation{level: "warning", file: "a,b:c%", title: "t", msg: "x%\n::error::injected\r"}
	if got, want := a.command(), "::warning file=a%2Cb%3Ac%25,title=t::x%25\\n::error::injected\\r\n"; got != want {
		t.Errorf("command = %q, want %q", got, want)
	}

	an := &result.Analysis{}
	for i := range maxAnnotations + 10 {
		an.Anomalies = append(an.Anomalies, result.Anomaly{Rule: "scalar.spike", Run: "r", Message: fmt.Sprint("spike ", i)})
	}
	var out bytes.Buffer
	if err := writeGitHubAnnotations(&out, &model.Report{}, an, "site"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != maxAnnotations+1 || !strings.Contains(lines[maxAnnotations], "10 more warning findings are not annotated") {
		t.Errorf("%d anomalies printed %d lines, the last %q; want %d, the last saying 10 more",
			maxAnnotations+10, len(lines), lines[len(lines)-1], maxAnnotations+1)
	}
}
