package collect

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trainreport/trainreport/collect/model"
)

// collectSoon collects dir, failing the test instead of hanging when a
// hostile file blocks the reader.
func collectSoon(t *testing.T, dir string) *model.Report {
	t.Helper()
	done := make(chan *model.Report, 1)
	go func() { done <- collectDir(t, dir, Options{}) }()
	select {
	case rep := <-done:
		return rep
	case <-time.After(30 * time.Second):
		t.Fatal("Collect did not return: blocked on a hostile file")
		return nil
	}
}

// warnings lists every warning of the report, with its file.
func allWarnings(rep *model.Report) string {
	var b strings.Builder
	for _, w := range rep.Warnings {
		fmt.Fprintln(&b, w)
	}
	for _, r := range rep.Runs {
		for _, w := range r.Warnings {
			fmt.Fprintln(&b, w)
		}
	}
	return b.String()
}

// Side files (hparams.yaml, structure_graph.json, projector configs and the
// files they name, the projector's checkpoint state) are read through the
// log directory: a link out of it is refused with a warning naming the
// file, so a log folder cannot publish a file of the machine it is read
// on, and a FIFO is refused instead of blocking the report forever.
func TestSideFilesStayInsideAndNeverBlock(t *testing.T) {
	parent := t.TempDir()
	secret := filepath.Join(parent, "hosts.yml")
	if err := os.WriteFile(secret, []byte("oauth_token: SECRET-TOKEN\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "logs")
	writeFiles(t, dir, []file{
		{"linked/events.out.tfevents.100.host", eventFile(t, losses(1, 2)...)},
		{"fifo/events.out.tfevents.100.host", eventFile(t, losses(1, 2)...)},
		{"proj/events.out.tfevents.100.host", eventFile(t, losses(1)...)},
		{"proj/projector_config.pbtxt", []byte(`embeddings { tensor_name: "w" tensor_path: "` + secret + `" metadata_path: "../../hosts.yml" }
model_checkpoint_dir: "ckpt"`)},
	})
	for _, l := range []struct{ target, name string }{
		{secret, "linked/hparams.yaml"},
		{secret, "linked/structure_graph.json"},
		{"../../hosts.yml", "linked/graph/structure_graph.json"},
		{secret, "proj/ckpt/checkpoint"},
		{secret, "outside/events.out.tfevents.1.host"},
	} {
		p := filepath.Join(dir, filepath.FromSlash(l.name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(l.target, p); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	for _, name := range []string{"fifo/hparams.yaml", "fifo/structure_graph.json", "fifo/projector_config.pbtxt", "fifo/events.out.tfevents.200.host"} {
		if err := syscall.Mkfifo(filepath.Join(dir, filepath.FromSlash(name)), 0o644); err != nil {
			t.Skipf("no FIFOs here: %v", err)
		}
	}
	rep := collectSoon(t, dir)
	defer rep.Close()
	if s := fmt.Sprintf("%+v", rep); strings.Contains(s, "SECRET") {
		t.Errorf("the report holds the secret")
	}
	for _, r := range rep.Runs {
		if r.HParams != nil {
			t.Errorf("run %s: hyperparameters read from %+v", r.Name, r.HParams)
		}
		if len(r.Graphs) > 0 || len(r.Embeddings) > 0 && r.Embeddings[0].Points != nil {
			t.Errorf("run %s: graphs %d, embeddings %+v", r.Name, len(r.Graphs), r.Embeddings)
		}
	}
	if r := findRun(rep, "linked"); r == nil || len(r.Scalars) != 1 {
		t.Errorf("the run beside the hostile side files lost its scalars: %+v", r)
	}
	if r := findRun(rep, "fifo"); r == nil || len(r.Scalars) != 1 {
		t.Errorf("the run beside the FIFOs lost its scalars: %+v", r)
	}
	got := allWarnings(rep)
	for _, want := range []string{
		"/linked/hparams.yaml: not a regular file (symbolic link)",
		"/linked/structure_graph.json: not a regular file (symbolic link)",
		"/linked/graph/structure_graph.json: not a regular file (symbolic link)",
		"/fifo/hparams.yaml: not a regular file (named pipe)",
		"/fifo/structure_graph.json: not a regular file (named pipe)",
		"/fifo/events.out.tfevents.200.host: not a regular file (named pipe)",
		"/fifo/projector_config.pbtxt: not a regular file (named pipe)",
		"/outside/events.out.tfevents.1.host: not a regular file (symbolic link)",
		"/proj/ckpt/checkpoint: not a regular file (symbolic link)",
		"proj/projector_config.pbtxt: embedding \"w\": tensor file: leaves the log directory",
		"proj/projector_config.pbtxt: embedding \"w\": metadata file: leaves the log directory",
	} {
		if n := strings.Count(got, want); n != 1 {
			t.Errorf("warning %q given %d times, want once, in\n%s", want, n, got)
		}
	}
}
