package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/trainreport/trainreport/examples/demo/demolog"
)

// The examples of sharded collection on Kubernetes and GitHub Actions
// (examples/kubernetes, examples/github-actions) cannot run here: no
// cluster, no runner. Their tests read them strictly (a field we do not
// know of is a typo), check what makes the shards add up, then run their
// commands as the engine would (its substitutions made, the folders it
// gives mapped to a temporary one) through trainreport's own collect and
// merge, and compare the report with a direct build. The Slurm scripts
// run on a real cluster: slurm_test.go (make test-slurm).

// k8sJob is the part of a Kubernetes batch/v1 Job the example uses.
type k8sJob struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		CompletionMode       string `yaml:"completionMode"`
		Completions          *int   `yaml:"completions"`
		Parallelism          *int   `yaml:"parallelism"`
		BackoffLimit         *int   `yaml:"backoffLimit"`
		BackoffLimitPerIndex *int   `yaml:"backoffLimitPerIndex"`
		Template             struct {
			Spec struct {
				RestartPolicy string         `yaml:"restartPolicy"`
				Containers    []k8sContainer `yaml:"containers"`
				Volumes       []struct {
					Name                  string `yaml:"name"`
					PersistentVolumeClaim struct {
						ClaimName string `yaml:"claimName"`
					} `yaml:"persistentVolumeClaim"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

type k8sContainer struct {
	Name      string                       `yaml:"name"`
	Image     string                       `yaml:"image"`
	Command   []string                     `yaml:"command"`
	Resources map[string]map[string]string `yaml:"resources"`
	Mounts    []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	} `yaml:"volumeMounts"`
}

// readYAML decodes the file at path into v, refusing fields v lacks.
func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	d := yaml.NewDecoder(bytes.NewReader(readFile(t, path)))
	d.KnownFields(true)
	if err := d.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestKubernetesExample checks examples/kubernetes: an Indexed Job of N
// pods, each collecting shard $(JOB_COMPLETION_INDEX)/N into its part on
// the shared volume, and a merge Job of the N parts; run with /data on a
// temporary folder holding the demo logs, they give the direct build's
// report, byte for byte.
func TestKubernetesExample(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(repoRoot(t), "examples", "kubernetes")
	var cj, mj k8sJob
	readYAML(t, filepath.Join(dir, "collect-job.yaml"), &cj)
	readYAML(t, filepath.Join(dir, "merge-job.yaml"), &mj)
	for _, j := range []*k8sJob{&cj, &mj} {
		s := j.Spec.Template.Spec
		if j.APIVersion != "batch/v1" || j.Kind != "Job" || s.RestartPolicy != "Never" || len(s.Containers) != 1 {
			t.Fatalf("%s: want a batch/v1 Job of one container, restartPolicy Never", j.Metadata.Name)
		}
		if len(s.Volumes) != 1 || s.Volumes[0].PersistentVolumeClaim.ClaimName != cj.Spec.Template.Spec.Volumes[0].PersistentVolumeClaim.ClaimName ||
			len(s.Containers[0].Mounts) != 1 || s.Containers[0].Mounts[0] != cj.Spec.Template.Spec.Containers[0].Mounts[0] ||
			s.Containers[0].Mounts[0].Name != s.Volumes[0].Name {
			t.Errorf("%s: want the one volume claim of the collect Job, mounted at the same path", j.Metadata.Name)
		}
	}
	if cj.Spec.Template.Spec.Containers[0].Image != mj.Spec.Template.Spec.Containers[0].Image {
		t.Error("the Jobs run different images: merge refuses parts of another version")
	}
	if cj.Spec.CompletionMode != "Indexed" || cj.Spec.Completions == nil || cj.Spec.Parallelism == nil {
		t.Fatal("collect-job.yaml: want completionMode Indexed, completions and parallelism")
	}
	n := *cj.Spec.Completions
	if *cj.Spec.Parallelism != n {
		t.Errorf("collect-job.yaml: parallelism %d, completions %d: the example runs every shard at once", *cj.Spec.Parallelism, n)
	}
	ccmd := cj.Spec.Template.Spec.Containers[0].Command
	mcmd := mj.Spec.Template.Spec.Containers[0].Command
	if len(ccmd) < 3 || ccmd[0] != "trainreport" || ccmd[1] != "collect" || len(mcmd) < 3 || mcmd[0] != "trainreport" || mcmd[1] != "merge" {
		t.Fatalf("want trainreport collect and trainreport merge, got %q and %q", ccmd, mcmd)
	}
	shard := fmt.Sprintf("$(JOB_COMPLETION_INDEX)/%d", n)
	if i := slices.Index(ccmd, "--shard"); i < 0 || i+1 == len(ccmd) || ccmd[i+1] != shard {
		t.Errorf("collect-job.yaml: want --shard %s, the /N of its %d completions: %q", shard, n, ccmd)
	}

	// The volume: /data on a temporary folder, the demo logs in it.
	data := filepath.Join(t.TempDir(), "data")
	onVolume := func(args []string) []string {
		out := make([]string, len(args))
		for i, a := range args {
			out[i] = a
			if rest, ok := strings.CutPrefix(a, "/data/"); ok {
				out[i] = filepath.Join(data, rest)
			}
		}
		return out
	}
	logdir := ccmd[len(ccmd)-1]
	if !strings.HasPrefix(logdir, "/data/") {
		t.Fatalf("collect-job.yaml: the log directory %q is not on the volume", logdir)
	}
	if err := demolog.Write(onVolume([]string{logdir})[0]); err != nil {
		t.Fatal(err)
	}
	var direct []string // the report flags of merge, and the log directory
	for i, a := range mcmd[2:] {
		if !strings.HasPrefix(a, "/data/parts/") && a != "--root" && (i == 0 || mcmd[2+i-1] != "--root") {
			direct = append(direct, a)
		}
	}
	// Both read the logs below one root, which holds them.
	if i, j := slices.Index(ccmd, "--root"), slices.Index(mcmd, "--root"); i < 0 || j < 0 || i+1 == len(ccmd) || j+1 == len(mcmd) ||
		ccmd[i+1] != mcmd[j+1] || !strings.HasPrefix(logdir, ccmd[i+1]+"/") {
		t.Errorf("want collect and merge given the same --root, holding the log directory %s: %q and %q", logdir, ccmd, mcmd)
	}
	want := buildAside(t, onVolume(append(direct, logdir)), "--quiet")

	for i := range n {
		args := make([]string, len(ccmd)-2)
		for k, a := range ccmd[2:] {
			// What the kubelet does with $(VAR) of the container's
			// environment, where the Job controller set the index.
			args[k] = strings.ReplaceAll(a, "$(JOB_COMPLETION_INDEX)", fmt.Sprint(i))
		}
		if code, stderr := runCmd(t, "collect", append([]string{"--quiet"}, onVolume(args)...)...); code != 0 {
			t.Fatalf("pod %d: trainreport collect %q: exit status %d\n%s", i, args, code, stderr)
		}
	}
	if code, stderr := runCmd(t, "merge", append([]string{"--quiet"}, onVolume(mcmd[2:])...)...); code != 0 {
		t.Fatalf("trainreport merge %q: exit status %d\n%s", mcmd[2:], code, stderr)
	}
	compareAside(t, want)
}

// aside is a report written and then moved aside (each output renamed
// with the suffix .direct), to compare with the one written at the same
// paths afterwards.
type aside map[string]string // output path -> where it was moved

// buildAside runs a direct build with args, then moves each output it
// names (-o, --single-file, --markdown) aside. The outputs keep the names
// the engine's commands give until then, so the paths the report holds
// (summary.md's links to the site) are the merged report's.
func buildAside(t *testing.T, args []string, extra ...string) aside {
	t.Helper()
	if code, stderr := runCmd(t, "", append(extra, args...)...); code != 0 {
		t.Fatalf("direct build %q: exit status %d\n%s", args, code, stderr)
	}
	a := aside{}
	for i, f := range args[:len(args)-1] {
		switch f {
		case "-o", "--single-file", "--markdown":
			p := args[i+1]
			if err := os.Rename(p, p+".direct"); err != nil {
				t.Fatal(err)
			}
			a[p] = p + ".direct"
		}
	}
	if len(a) == 0 {
		t.Fatalf("direct build %q: no output found among the arguments", args)
	}
	return a
}

// compareAside fails unless every output moved aside is, byte for byte,
// the one now at its path.
func compareAside(t *testing.T, a aside) {
	t.Helper()
	for p, d := range a {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if !fi.IsDir() {
			if !bytes.Equal(readFile(t, p), readFile(t, d)) {
				t.Errorf("%s differs from the direct build's", p)
			}
			continue
		}
		got, want := siteFiles(t, p), siteFiles(t, d)
		if len(got) != len(want) {
			t.Errorf("%s: %d files, the direct build %d", p, len(got), len(want))
		}
		for name, b := range want {
			if !bytes.Equal(got[name], b) {
				t.Errorf("%s: %s differs from the direct build's", p, name)
			}
		}
	}
}

// ghWorkflow is the part of a GitHub Actions workflow the example uses.
type ghWorkflow struct {
	Name        string            `yaml:"name"`
	On          map[string]any    `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]struct {
		RunsOn   string `yaml:"runs-on"`
		Needs    string `yaml:"needs"`
		Strategy *struct {
			FailFast bool             `yaml:"fail-fast"`
			Matrix   map[string][]int `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []ghStep `yaml:"steps"`
	} `yaml:"jobs"`
}

type ghStep struct {
	Uses string            `yaml:"uses"`
	With map[string]string `yaml:"with"`
	Run  string            `yaml:"run"`
}

// maxMatrix is GitHub Actions' limit on the jobs of one matrix.
const maxMatrix = 256

// TestGitHubActionsExample checks examples/github-actions: a matrix of
// shards 0 to N-1 (N at most 256), each job collecting its shard and
// uploading its part as an artifact named as the folder, and a merge job
// after them all downloading every part into parts/part-I. Its commands,
// run in a folder standing for the workspace (logs/ holding the demo
// logs) with the artifacts moved as upload and download move them, give
// the direct build's report, byte for byte.
func TestGitHubActionsExample(t *testing.T) {
	var w ghWorkflow
	readYAML(t, filepath.Join(repoRoot(t), "examples", "github-actions", "sweep-report.yml"), &w)
	coll, merge := w.Jobs["collect"], w.Jobs["merge"]
	if coll.Strategy == nil || !coll.Strategy.FailFast || len(coll.Strategy.Matrix) != 1 {
		t.Fatal("the collect job: want a fail-fast matrix of one variable, shard")
	}
	shards := coll.Strategy.Matrix["shard"]
	n := len(shards)
	if n == 0 || n > maxMatrix {
		t.Fatalf("the matrix has %d jobs: want 1 to %d", n, maxMatrix)
	}
	for i, s := range shards {
		if s != i {
			t.Fatalf("the matrix's shards are %v: want 0 to %d, each once, in order", shards, n-1)
		}
	}
	if merge.Needs != "collect" {
		t.Errorf("the merge job needs %q: want collect, so it runs once every shard succeeded", merge.Needs)
	}
	run := func(steps []ghStep, prefix string) string {
		t.Helper()
		var found []string
		for _, s := range steps {
			if strings.HasPrefix(s.Run, prefix) {
				found = append(found, s.Run)
			}
		}
		if len(found) != 1 {
			t.Fatalf("want one step running %s, got %q", prefix, found)
		}
		return found[0]
	}
	step := func(steps []ghStep, uses string) ghStep {
		t.Helper()
		var found []ghStep
		for _, s := range steps {
			if a, _, _ := strings.Cut(s.Uses, "@"); a == uses {
				found = append(found, s)
			}
		}
		if len(found) != 1 {
			t.Fatalf("want one step using %s, got %d", uses, len(found))
		}
		return found[0]
	}
	collectRun := run(coll.Steps, "trainreport collect ")
	mergeRun := run(merge.Steps, "trainreport merge ")
	upload, download := step(coll.Steps, "actions/upload-artifact"), step(merge.Steps, "actions/download-artifact")
	if upload.With["name"] != "part-${{ matrix.shard }}" || upload.With["path"] != "part-${{ matrix.shard }}" {
		t.Errorf("the upload: want artifact part-${{ matrix.shard }} of the folder part-${{ matrix.shard }}, got %v", upload.With)
	}
	if download.With["pattern"] != "part-*" || download.With["merge-multiple"] != "" {
		t.Errorf("the download: want every part-* artifact, each in its own folder, got %v", download.With)
	}
	parts := download.With["path"]

	t.Chdir(t.TempDir()) // the workspace
	if err := demolog.Write("logs"); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GITHUB_STEP_SUMMARY": "step-summary.md"}
	cargs := func(i int) []string {
		r := strings.NewReplacer("${{ matrix.shard }}", fmt.Sprint(i), "${{ strategy.job-total }}", fmt.Sprint(n))
		return shellWords(t, r.Replace(collectRun), env)[2:]
	}
	var direct []string // the report flags of merge, and collect's log directory
	for _, a := range shellWords(t, mergeRun, env)[2:] {
		if !strings.HasPrefix(a, parts+"/") {
			direct = append(direct, a)
		}
	}
	c0 := cargs(0)
	want := buildAside(t, append(direct, c0[len(c0)-1]), "--quiet")
	if err := os.Mkdir(parts, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if code, stderr := runCmd(t, "collect", append([]string{"--quiet"}, cargs(i)...)...); code != 0 {
			t.Fatalf("matrix job %d: trainreport collect %q: exit status %d\n%s", i, cargs(i), code, stderr)
		}
		// upload-artifact from this job, download-artifact in the merge
		// job: the folder part-I as parts/part-I.
		p := fmt.Sprintf("part-%d", i)
		if err := os.Rename(p, filepath.Join(parts, p)); err != nil {
			t.Fatal(err)
		}
	}
	margs := shellWords(t, mergeRun, env) // the parts exist now: the pattern expands
	if code, stderr := runCmd(t, "merge", append([]string{"--quiet"}, margs[2:]...)...); code != 0 {
		t.Fatalf("trainreport merge %q: exit status %d\n%s", margs[2:], code, stderr)
	}
	compareAside(t, want)
}

// shellWords splits a one-line command of a run step as bash would for
// the little it uses: words split on blanks, double quotes, $NAME from
// env, and unquoted patterns expanded (kept as they are when nothing
// matches). Anything else a shell would treat specially fails the test.
func shellWords(t *testing.T, line string, env map[string]string) []string {
	t.Helper()
	if strings.ContainsAny(line, "'`\\;|&<>(){}\n") {
		t.Fatalf("%q: more shell than the test reads", line)
	}
	var words []string
	var w strings.Builder
	inWord, quoted, pattern := false, false, false
	end := func() {
		if !inWord {
			return
		}
		m, _ := filepath.Glob(w.String())
		if pattern && len(m) > 0 {
			words = append(words, m...)
		} else {
			words = append(words, w.String())
		}
		w.Reset()
		inWord, pattern = false, false
	}
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '"':
			quoted, inWord = !quoted, true
		case c == ' ' && !quoted:
			end()
		case c == '$':
			j := i + 1
			for j < len(line) && (line[j] == '_' || 'A' <= line[j] && line[j] <= 'Z' || 'a' <= line[j] && line[j] <= 'z' || '0' <= line[j] && line[j] <= '9') {
				j++
			}
			v, ok := env[line[i+1:j]]
			if !ok || !quoted {
				t.Fatalf("%q: $%s unknown or unquoted", line, line[i+1:j])
			}
			w.WriteString(v)
			inWord, i = true, j-1
		default:
			pattern = pattern || (!quoted && strings.ContainsRune("*?[", rune(c)))
			w.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("%q: unterminated quote", line)
	}
	end()
	return words
}
