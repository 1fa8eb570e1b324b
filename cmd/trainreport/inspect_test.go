package main

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestInspect(t *testing.T) {
	root := corpusRoot(t)
	var out, errb bytes.Buffer
	code := runInspect(context.Background(), []string{"--json", filepath.Join(root, "tf2-custom-loop-tensors"), filepath.Join(root, "tf1-estimator-truncated")}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got inspectJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	truncated := 0
	for _, r := range got.Runs {
		for _, tg := range r.Tags {
			kinds[r.Name+"|"+tg.Tag] = tg.Kind
			if tg.Count <= 0 || tg.LastStep < tg.FirstStep {
				t.Errorf("%s %s: count %d, steps %d..%d", r.Name, tg.Tag, tg.Count, tg.FirstStep, tg.LastStep)
			}
		}
		for _, f := range r.Files {
			if f.Status == "truncated" {
				truncated++
			}
		}
		for _, w := range r.Warnings {
			if strings.Contains(w.Message, "truncated") && (w.Offset == nil || *w.Offset != 857490) {
				t.Errorf("truncation warning without its offset: %+v", w)
			}
		}
	}
	want := map[string]string{
		"tf2-custom-loop-tensors/logs/custom/20200328-162351|logloss":         "scalar",
		"tf2-custom-loop-tensors/logs/custom/20200328-162351|linear/kernel:0": "histogram",
		"tf2-custom-loop-tensors/logs/custom/20200328-162351|logitic_graph":   "graph",
		"tf1-estimator-truncated/tmp/alaki/tile/eval|checkpoint_path":         "text",
	}
	for k, v := range want {
		if kinds[k] != v {
			t.Errorf("%s: kind %q, want %q", k, kinds[k], v)
		}
	}
	if truncated != 2 {
		t.Errorf("%d truncated files, want 2", truncated)
	}

	out.Reset()
	if code := runInspect(context.Background(), []string{filepath.Join(root, "tf2-custom-loop-tensors")}, &out, &errb); code != 0 {
		t.Fatalf("text output: exit %d", code)
	}
	if !strings.Contains(out.String(), "linear/kernel:0") || !strings.Contains(out.String(), "histograms") {
		t.Errorf("text output lacks the tags:\n%s", out.String())
	}
	if code := runInspect(context.Background(), []string{"/no/such/dir"}, &out, &errb); code != 1 {
		t.Errorf("missing directory: exit %d", code)
	}
}

// inspect lists the attempts of a run that restarted, under the rule
// --restarts chooses, and refuses --restarts with --keep-all-records.
func TestInspectListsAttempts(t *testing.T) {
	dir := filepath.Join(corpusRoot(t), "pytorch-events-at-repo-root")
	var out, errb bytes.Buffer
	if code := runInspect(context.Background(), []string{"--json", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got inspectJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Runs) != 1 || len(got.Runs[0].Attempts) != 2 || got.Runs[0].Attempts[0].Superseded != 808 || got.Runs[0].Attempts[1].Points != 146 {
		t.Errorf("attempts %+v, want 2: 808 points superseded, then 146 on the line", got.Runs)
	}
	out.Reset()
	if code := runInspect(context.Background(), []string{dir}, &out, &errb); code != 0 || !strings.Contains(out.String(), "attempt 2") {
		t.Errorf("exit %d, text output lacks its attempts:\n%s", code, out.String())
	}
	errb.Reset()
	if code := runInspect(context.Background(), []string{"--restarts=latest", "--keep-all-records", dir}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "not both") {
		t.Errorf("--restarts with --keep-all-records: exit %d, %s", code, errb.String())
	}
}

// An embedding whose name would drive the terminal: the embeddings page
// draws it, so inspect no longer lists it as not drawn, and nothing of its
// name reaches the terminal. (render's TestNotDrawnNamesEmbeddingsWithTheirShapes
// keeps the naming of embeddings no page draws, for a report without the page.)
func TestInspectNamesEmbeddingsEscaped(t *testing.T) {
	dir := t.TempDir()
	tsv := "1\t2\n3\t4\n5\t6\n"
	config := "embeddings { tensor_name: \"emb\\x1b]0;pwned\\x07\" tensor_path: \"t.tsv\" }\n"
	for name, body := range map[string]string{"t.tsv": tsv, "projector_config.pbtxt": config} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	if code := runInspect(context.Background(), []string{dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if strings.ContainsAny(out.String(), "\x1b\x07") {
		t.Errorf("a control character reached the terminal:\n%q", out.String())
	}
	if strings.Contains(out.String(), "not drawn yet") {
		t.Errorf("the embedding is listed as not drawn:\n%s", out.String())
	}
}

// TestInspectMindSpore lists a MindSpore summary folder: each file with its
// format, each tag with its kind, the graph with its node count.
func TestInspectMindSpore(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "collect", "testdata", "mindspore")
	var out, errb bytes.Buffer
	if code := runInspect(context.Background(), []string{"--json", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got inspectJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	formats := map[string]int{}
	kinds := map[string]string{}
	var graphs []result.GraphCount
	for _, r := range got.Runs {
		for _, f := range r.Files {
			formats[f.Format]++
		}
		for _, tg := range r.Tags {
			kinds[r.Name+"|"+tg.Tag] = tg.Kind
		}
		for _, g := range r.Graphs {
			if g.Source == "mindspore" {
				graphs = append(graphs, g)
			}
		}
		if len(r.NotDrawn) != 0 {
			t.Errorf("run %s: %+v not drawn, want everything drawn", r.Name, r.NotDrawn)
		}
	}
	if formats["mindspore"] != 2 || formats["mindspore-lineage"] != 2 || len(formats) != 2 {
		t.Errorf("file formats %v, want 2 mindspore and 2 mindspore-lineage", formats)
	}
	for k, v := range map[string]string{"records|loss": "scalar", "records|old/acc": "scalar", "records|digits": "image",
		"records|weights": "tensor", "records|activations": "histogram", "train|fc1.weight/auto": "histogram", "train|mean": "scalar"} {
		if kinds[k] != v {
			t.Errorf("%s: kind %q, want %q", k, kinds[k], v)
		}
	}
	if len(graphs) != 1 || graphs[0].Nodes != 65 {
		t.Errorf("MindSpore graphs %+v, want one of 65 nodes (the Graphs page draws it)", graphs)
	}
	out.Reset()
	if code := runInspect(context.Background(), []string{dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "ok  mindspore-lineage\n") {
		t.Errorf("text output names no lineage file:\n%s", out.String())
	}
}

// TestInspectCountsSupersededOfEveryKind inspects
// collect/testdata/attempts/twowriters (two tensorboardX writers into one
// run, steps 0..2 each, of a scalar, a histogram and an image): every
// tag, whatever its kind, counts 3 on its line and 3 superseded, which
// together are the records --keep-all-records counts; and the MindSpore
// fixture lists its lineage's dataset graph and the writes of steps 8
// and 16 that SummaryCollector repeats.
func TestInspectCountsSupersededOfEveryKind(t *testing.T) {
	inspect := func(args ...string) inspectJSON {
		t.Helper()
		var out, errb bytes.Buffer
		if code := runInspect(context.Background(), append([]string{"--json"}, args...), &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		var got inspectJSON
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		return got
	}
	dir := filepath.Join("..", "..", "collect", "testdata", "attempts", "twowriters")
	raw := map[string]int{}
	for _, tag := range inspect("--keep-all-records", dir).Runs[0].Tags {
		raw[tag.Tag] = tag.Count
	}
	kinds := map[string]bool{}
	for _, tag := range inspect(dir).Runs[0].Tags {
		kinds[tag.Kind] = true
		if tag.Count != 3 || tag.Superseded != 3 || tag.Count+tag.Superseded != raw[tag.Tag] {
			t.Errorf("tag %q (%s): count %d, superseded %d; want 3 and 3 of %d records", tag.Tag, tag.Kind, tag.Count, tag.Superseded, raw[tag.Tag])
		}
	}
	if !kinds["scalar"] || !kinds["histogram"] || !kinds["image"] {
		t.Errorf("kinds %v, want scalar, histogram and image", kinds)
	}

	ms := inspect(filepath.Join("..", "..", "collect", "testdata", "mindspore"))
	for _, r := range ms.Runs {
		if r.Name != "train" {
			continue
		}
		var sources []string
		for _, g := range r.Graphs {
			sources = append(sources, g.Source)
		}
		if !slices.Contains(sources, "mindspore-dataset") {
			t.Errorf("train's graphs %v lack the lineage's dataset graph", sources)
		}
		for _, tag := range r.Tags {
			if tag.Tag == "loss/auto" && (tag.Count != 5 || tag.Superseded != 2) {
				t.Errorf("loss/auto: count %d, superseded %d; want 5 and 2 (steps 8 and 16 written twice)", tag.Count, tag.Superseded)
			}
		}
	}
}
