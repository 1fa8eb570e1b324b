package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// A log directory of Git LFS stubs only still fails, but writes a report
// whose overview names each stub and why it holds no data.
func TestLFSStubsStillWriteAReportSayingWhy(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	code, stderr := runCLI(t, "-quiet", "-o", out, filepath.Join(corpusRoot(t), "hf-whisper-lfs-pointers"))
	if code != 1 || !strings.Contains(stderr, "nothing readable") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1, nothing readable", code, stderr)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatalf("no report written: %v", err)
	}
	if n := bytes.Count(page, []byte(`<span class="badge bad">lfs-pointer</span> offset 0: Git LFS pointer stub`)); n != 11 {
		t.Errorf("the overview names %d LFS stubs with why, want 11", n)
	}
	if !bytes.Contains(page, []byte("11 files skipped or read in part</a> (11 lfs-pointer)")) {
		t.Errorf("the overview's lead does not count the stubs")
	}
}

// The CLI's closing message counts the files skipped or read in part, by
// status, and points at the overview, even with -quiet: a profiler marker
// warns of nothing else.
func TestClosingMessageCountsSkippedFiles(t *testing.T) {
	root := corpusRoot(t)
	for dir, want := range map[string]string{
		"keras-tf21-standard-profile": "1 file skipped or read in part (1 profile-empty): see the overview, ",
		"tf1-estimator-truncated":     "2 files skipped or read in part (2 truncated): see the overview, ",
	} {
		out := filepath.Join(t.TempDir(), "site")
		code, stderr := runCLI(t, "-quiet", "-o", out, filepath.Join(root, dir))
		if code != 0 || !strings.Contains(stderr, want+filepath.Join(out, "index.html")+"\n") {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant %q", dir, code, stderr, want)
		}
	}
}

// inspect lists each graph with its counts, and what no page draws yet,
// per run, in text and JSON: TS-VIS's graphs and tf2-projector-ckpt's
// embeddings have their pages; strings of a plugin nobody knows have none.
func TestInspectListsUndrawnData(t *testing.T) {
	inspect := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := runInspect(context.Background(), args, &out, &errb); code != 0 {
			t.Fatalf("inspect %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
		return out.String()
	}
	tsvis := filepath.Join(corpusRoot(t), "tsvis-oneflow-logs")
	text := inspect(tsvis)
	if !strings.Contains(text, "  graph  oneflow  eval_job   step 0  24 nodes  23 edges\n") || strings.Contains(text, "not drawn yet") {
		t.Errorf("text output does not list the graphs with their counts, or lists them as not drawn:\n%s", text)
	}
	var got inspectJSON
	if err := json.Unmarshal([]byte(inspect("--json", tsvis)), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Runs) == 0 || len(got.Runs[0].Graphs) != 2 || got.Runs[0].Graphs[0].Nodes != 44 || len(got.Runs[0].NotDrawn) != 0 {
		t.Errorf("JSON runs = %+v, want the first with 2 graphs, drawn", got.Runs)
	}
	if text := inspect(filepath.Join(corpusRoot(t), "tf2-projector-ckpt")); strings.Contains(text, "not drawn yet") {
		t.Errorf("tf2-projector-ckpt's embeddings are listed as not drawn:\n%s", text)
	}

	odd := filepath.Join(t.TempDir(), "run", "events.out.tfevents.1.host")
	writeEventFile(t, odd, []*eventpb.Event{summaryEvent(1, 0, &eventpb.SummaryValue{Tag: "odd",
		Metadata: &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: "mystery"}},
		Value:    &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_STRING, StringVal: [][]byte{[]byte("?")}}}})})
	logs := filepath.Dir(filepath.Dir(odd))
	if text := inspect(logs); !strings.Contains(text, "  not drawn yet: 1 tag of kind other\n") {
		t.Errorf("a tag of an unknown plugin is not listed as not drawn:\n%s", text)
	}
	if err := json.Unmarshal([]byte(inspect("--json", logs)), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Runs) != 1 || len(got.Runs[0].NotDrawn) != 1 || got.Runs[0].NotDrawn[0] != (inspectNotDrawn{What: "tag of kind other", Count: 1}) {
		t.Errorf("JSON runs = %+v, want one tag of kind other not drawn", got.Runs)
	}
}

// --markdown-form job writes the full form; a bad form is a usage error.
func TestMarkdownFormFlag(t *testing.T) {
	root := corpusRoot(t)
	dir := t.TempDir()
	out, md := filepath.Join(dir, "site"), filepath.Join(dir, "sum.md")
	if code, stderr := runCLI(t, "-quiet", "-o", out, "--markdown", md, "--markdown-form", "job", filepath.Join(root, "lightning-tbx-sweep")); code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	b, _ := os.ReadFile(md)
	site, _ := os.ReadFile(filepath.Join(out, "summary.md"))
	if !bytes.Equal(b, site) || !bytes.Contains(b, []byte("| Tag | Run | Last |")) || !bytes.Contains(b, []byte("lightning\\_logs/version\\_9 | 1 ok")) {
		t.Errorf("--markdown-form job did not write the full form to both files:\n%s", b)
	}
	if code, stderr := runCLI(t, "-o", out, "--markdown-form", "email", filepath.Join(root, "lightning-tbx-sweep")); code != 2 || !strings.Contains(stderr, `unknown Markdown form "email"`) {
		t.Errorf("bad form: exit %d, stderr:\n%s", code, stderr)
	}
}
