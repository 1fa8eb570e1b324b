package action

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/trainreport/trainreport/internal/testcorpus"
)

// bin is a folder holding trainreport, built from this checkout, and the
// stub gh, put first on the PATH of every step run.
var bin string

func TestMain(m *testing.M) {
	os.Exit(func() int {
		dir, err := os.MkdirTemp("", "action-bin")
		if err != nil {
			panic(err)
		}
		defer os.RemoveAll(dir)
		build := exec.Command("go", "build", "-o", filepath.Join(dir, "trainreport"), "../../cmd/trainreport")
		if out, err := build.CombinedOutput(); err != nil {
			os.Stderr.Write(out)
			panic(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "gh"), []byte(stubGH), 0o755); err != nil {
			panic(err)
		}
		bin = dir
		return m.Run()
	}())
}

// stubGH stands for GitHub's CLI: it appends its arguments, one call per
// line, to $GH_LOG, keeps the body a -F body=@FILE names in $GH_BODY, and
// answers the listing of comments with the ids in $GH_EXISTING (what gh's
// --jq would print of GitHub's answer).
const stubGH = `#!/usr/bin/env bash
echo "$*" >>"$GH_LOG"
for a in "$@"; do
	case $a in body=@*) cp "${a#body=@}" "$GH_BODY" ;; esac
done
case " $* " in *" --paginate "*) cat "$GH_EXISTING" 2>/dev/null || true ;; esac
`

// step runs action.sh's subcommand with env, as the runner would.
func step(t *testing.T, sub string, env map[string]string) (stdout string, status int) {
	t.Helper()
	cmd := exec.Command("bash", "action.sh", sub)
	cmd.Env = []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "RUNNER_TEMP=" + t.TempDir()}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		status = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	if errb.Len() > 0 {
		t.Logf("action.sh %s: stderr: %s", sub, errb.String())
	}
	return out.String(), status
}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReportStepWritesTheSummaryOutputsAndAnnotations: the report step
// appends summary.md to the job summary, sets the outputs, prints the
// annotations, and does not fail when a gate does (the upload and the
// comment must still run): the status says it.
func TestReportStepWritesTheSummaryOutputsAndAnnotations(t *testing.T) {
	dir := t.TempDir()
	out, summary, site := filepath.Join(dir, "output"), filepath.Join(dir, "summary"), filepath.Join(dir, "site")
	if err := os.WriteFile(summary, []byte("an earlier step's summary\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, status := step(t, "report", map[string]string{
		"INPUT_LOGDIR": "'" + testcorpus.Dir(t, "tf1-estimator-truncated") + "'",
		"INPUT_ARGS":   `-quiet --fail-on 'any(warning)'`, "INPUT_OUTPUT": site,
		"GITHUB_OUTPUT": out, "GITHUB_STEP_SUMMARY": summary,
	})
	if status != 0 {
		t.Fatalf("report step: exit %d, want 0 (the verdict step fails the job)", status)
	}
	if got, want := read(t, out), "status=3\nsite="+site+"\nsummary="+site+"/summary.md\n"; got != want {
		t.Errorf("GITHUB_OUTPUT = %q, want %q", got, want)
	}
	if got, want := read(t, summary), "an earlier step's summary\n"+read(t, filepath.Join(site, "summary.md")); got != want {
		t.Errorf("the job summary is not the earlier one followed by summary.md:\n%s", got)
	}
	if !strings.Contains(stdout, "::error title=trainreport%3A gate failed::any(warning)") ||
		strings.Count(stdout, "::warning ") != 3 {
		t.Errorf("report step's stdout lacks the gate's ::error or the three ::warning lines:\n%s", stdout)
	}
}

// TestInputsAreSplitNotRun: the inputs are split into words as xargs
// splits them (quotes group), and nothing in them is expanded or run.
func TestInputsAreSplitNotRun(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "site")
	pwned := filepath.Join(dir, "pwned")
	_, status := step(t, "report", map[string]string{
		"INPUT_LOGDIR": "'" + testcorpus.Dir(t, "tf2-custom-loop-tensors") + "'",
		"INPUT_ARGS":   `-quiet --title "a $HOME $(touch ` + pwned + `) title"`, "INPUT_OUTPUT": site,
		"INPUT_ANNOTATIONS": "false", "GITHUB_OUTPUT": filepath.Join(dir, "output"),
	})
	if status != 0 {
		t.Fatalf("report step: exit %d", status)
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Error("a $(command) in the args input was run")
	}
	if index := read(t, filepath.Join(site, "index.html")); !strings.Contains(index, "a $HOME $(touch "+pwned+") title") {
		t.Error("the title given in the args input is not the report's, word for word")
	}
}

// TestCommentStepKeepsOneComment: on a pull request the comment step
// creates the comment, marked, holding summary.md and the artifact's
// link; once it exists it updates it; with no pull request it asks
// nothing of GitHub.
func TestCommentStepKeepsOneComment(t *testing.T) {
	dir := t.TempDir()
	summary := filepath.Join(dir, "summary.md")
	if err := os.WriteFile(summary, []byte("## trainreport\n\n| run | loss |\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	event := filepath.Join(dir, "event.json")
	if err := os.WriteFile(event, []byte(`{"action": "synchronize", "pull_request": {"number": 7}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"GITHUB_EVENT_PATH": event, "GITHUB_REPOSITORY": "owner/repo", "SUMMARY": summary,
		"ARTIFACT_NAME": "trainreport-report", "ARTIFACT_URL": "https://github.com/owner/repo/actions/runs/1/artifacts/2",
		"GH_LOG": filepath.Join(dir, "gh.log"), "GH_BODY": filepath.Join(dir, "body"), "GH_EXISTING": filepath.Join(dir, "existing"),
	}
	if _, status := step(t, "comment", env); status != 0 {
		t.Fatalf("comment step: exit %d", status)
	}
	calls := strings.Split(strings.TrimSpace(read(t, env["GH_LOG"])), "\n")
	if len(calls) != 2 || !strings.HasPrefix(calls[0], "api --paginate repos/owner/repo/issues/7/comments --jq") ||
		!strings.HasPrefix(calls[1], "api --method POST repos/owner/repo/issues/7/comments -F body=@") {
		t.Errorf("first comment: gh was called %q; want the listing, then a POST", calls)
	}
	body := read(t, env["GH_BODY"])
	if want := "<!-- trainreport -->\n## trainreport\n\n| run | loss |\n\nThe whole report: [trainreport-report](" + env["ARTIFACT_URL"] + ")"; !strings.HasPrefix(body, want) {
		t.Errorf("comment body = %q, want it to start %q", body, want)
	}

	os.Remove(env["GH_LOG"])
	if err := os.WriteFile(env["GH_EXISTING"], []byte("99\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, status := step(t, "comment", env); status != 0 {
		t.Fatalf("comment step: exit %d", status)
	}
	calls = strings.Split(strings.TrimSpace(read(t, env["GH_LOG"])), "\n")
	if len(calls) != 2 || !strings.HasPrefix(calls[1], "api --method PATCH repos/owner/repo/issues/comments/99 -F body=@") {
		t.Errorf("second comment: gh was called %q; want the listing, then a PATCH of comment 99", calls)
	}

	os.Remove(env["GH_LOG"])
	if err := os.WriteFile(event, []byte(`{"ref": "refs/heads/main"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if stdout, status := step(t, "comment", env); status != 0 || !strings.Contains(stdout, "no pull request") {
		t.Errorf("comment step on a push: exit %d, %q; want 0 and a line saying there is no pull request", status, stdout)
	}
	if _, err := os.Stat(env["GH_LOG"]); err == nil {
		t.Error("comment step on a push called gh")
	}
}

// TestVerdictStepFailsAsTheReportDid: the last step exits with the
// report's status, saying why.
func TestVerdictStepFailsAsTheReportDid(t *testing.T) {
	for status, says := range map[string]string{"0": "", "3": "a gate failed", "1": "trainreport failed", "": "trainreport failed"} {
		stdout, got := step(t, "verdict", map[string]string{"STATUS": status})
		want := 1
		if status != "" {
			want = int(status[0] - '0')
		}
		if got != want || !strings.Contains(stdout, says) {
			t.Errorf("verdict with STATUS=%q: exit %d, %q; want %d saying %q", status, got, stdout, want, says)
		}
	}
}

// TestActionRunsEveryStepOfTheScript: action.yml's steps call action.sh's
// subcommands, and hand the script every INPUT_ variable it reads.
func TestActionRunsEveryStepOfTheScript(t *testing.T) {
	var action struct {
		Inputs map[string]any
		Runs   struct {
			Using string
			Steps []struct {
				Run string
				Env map[string]string
			}
		}
	}
	if err := yaml.Unmarshal([]byte(read(t, "../../action.yml")), &action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" {
		t.Errorf("action.yml runs using %q, want composite", action.Runs.Using)
	}
	script := read(t, "action.sh")
	var subs []string
	for _, s := range action.Runs.Steps {
		if s.Run == "" {
			continue
		}
		sub := s.Run[strings.LastIndex(s.Run, " ")+1:]
		subs = append(subs, sub)
		for k, v := range s.Env {
			if k != "GH_TOKEN" && !strings.Contains(script, k) { // GH_TOKEN is gh's
				t.Errorf("step %q sets %s, which action.sh never reads", sub, k)
			}
			if name, ok := strings.CutPrefix(v, "${{ inputs."); ok {
				if _, ok := action.Inputs[strings.TrimSuffix(name, " }}")]; !ok {
					t.Errorf("step %q reads the input %s, which action.yml does not declare", sub, v)
				}
			}
		}
	}
	if want := []string{"install", "report", "comment", "verdict"}; !slices.Equal(subs, want) {
		t.Errorf("action.yml runs action.sh %v, want %v", subs, want)
	}
}
