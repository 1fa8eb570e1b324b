package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/model"
)

// TestLogdirSpecIsReadAsTensorBoardReadsIt: each entry of --logdir_spec
// gives the name and folder TensorBoard 2.21's _parse_event_files_spec
// gives it (the wants below are its answers, run on the same specs).
func TestLogdirSpecIsReadAsTensorBoardReadsIt(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	named := func(name, path string) collect.LogdirArg {
		return collect.LogdirArg{Logdir: model.Logdir{Name: name, Path: path}, Asked: name}
	}
	for _, tc := range []struct {
		spec string
		want []collect.LogdirArg
	}{
		{"", nil},
		{"a:/x/y,b:/z", []collect.LogdirArg{named("a", "/x/y"), named("b", "/z")}},
		{"/a:b", []collect.LogdirArg{named("", "/a:b")}},
		{"s3://b/p", []collect.LogdirArg{named("", "s3://b/p")}},
		{"n:s3://b/p", []collect.LogdirArg{named("n", "s3://b/p")}},
		{"rel:dir:with:colon", []collect.LogdirArg{named("rel", "dir:with:colon")}},
		{"~/x", []collect.LogdirArg{named("", "/home/u/x")}},
		{"a:/x,b:/x,c:/w", []collect.LogdirArg{named("b", "/x"), named("c", "/w")}},
		{"dir", []collect.LogdirArg{named("", "dir")}},
		{"gs://bkt/run,c:~/q", []collect.LogdirArg{named("", "gs://bkt/run"), named("c", "/home/u/q")}},
		{"a/b:/p", []collect.LogdirArg{named("a/b", "/p")}},
	} {
		if got := parseLogdirSpec(tc.spec); !slices.Equal(got, tc.want) {
			t.Errorf("parseLogdirSpec(%q) = %v, want %v", tc.spec, got, tc.want)
		}
	}
}

// TestTensorBoardLogdirFlagsReadWhatArgumentsRead: a TensorBoard command
// line's --logdir and --logdir_spec read the runs, under the names, that
// the same folders given as arguments do, in the report and in inspect;
// the two flags together are refused, as TensorBoard refuses them.
func TestTensorBoardLogdirFlagsReadWhatArgumentsRead(t *testing.T) {
	t.Parallel()
	root := corpusRoot(t)
	a, b := filepath.Join(root, "tf2-custom-loop-tensors"), filepath.Join(root, "tf1-estimator-truncated")
	inspect := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := runInspect(context.Background(), append([]string{"--json"}, args...), &out, &errb); code != 0 {
			t.Fatalf("inspect %q: exit %d: %s", args, code, errb.String())
		}
		return out.String()
	}
	if got, want := inspect("--logdir", a), inspect(a); got != want {
		t.Errorf("inspect --logdir DIR differs from inspect DIR:\n%s\nwant\n%s", got, want)
	}
	spec := inspect("--logdir_spec", "first:"+a+",second:"+b)
	if want := inspect("first="+a, "second="+b); spec != want {
		t.Errorf("inspect --logdir_spec first:A,second:B differs from first=A second=B:\n%s\nwant\n%s", spec, want)
	}
	if !strings.Contains(spec, `"first/`) || !strings.Contains(spec, `"second/`) {
		t.Errorf("inspect --logdir_spec: runs not named behind first/ and second/:\n%s", spec)
	}

	out := filepath.Join(t.TempDir(), "site")
	var errb bytes.Buffer
	if code := run(context.Background(), []string{"-quiet", "-o", out, "--logdir_spec", "first:" + a + ",second:" + b}, &bytes.Buffer{}, &errb); code != 0 {
		t.Fatalf("report --logdir_spec: exit %d: %s", code, errb.String())
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(index, []byte("first/")) || !bytes.Contains(index, []byte("second/")) {
		t.Error("the report of --logdir_spec first:A,second:B names no run first/… or second/…")
	}

	errb.Reset()
	code := run(context.Background(), []string{"-o", out, "--logdir", a, "--logdir_spec", "x:" + b}, &bytes.Buffer{}, &errb)
	if code != exitUsage || !strings.Contains(errb.String(), "may not both be given") {
		t.Errorf("--logdir with --logdir_spec: exit %d, %q; want %d and a message saying both may not be given", code, errb.String(), exitUsage)
	}
}
