package main

import (
	"context"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gocloud.dev/blob"

	"github.com/trainreport/trainreport/internal/testbucket"
)

// TestMotoSweepEqualsDisk is the bucket test against a second, independent
// S3 implementation: moto's server mode (Python), started on 127.0.0.1 on
// a free port and stopped by the test. TRAINREPORT_MOTO names its
// moto_server; `make test` builds it (make test-moto) and sets it, and
// the test is skipped without it, except in CI (CI set), where it fails.
func TestMotoSweepEqualsDisk(t *testing.T) {
	testbucket.SetAWSEnv(t)
	endpoint := testbucket.StartMoto(t)
	// moto checks no signature: a bare PUT makes the bucket.
	req, _ := http.NewRequest(http.MethodPut, endpoint+"/logs", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("creating the bucket: %v %v", resp, err)
	}
	testEmulatedBucket(t, "s3://logs", "?endpoint="+endpoint+"&use_path_style=true&region=us-east-1")
}

// testEmulatedBucket is the test of a cloud's driver against its emulator,
// the bucket at base (scheme://bucket, empty) opened with the driver
// options query ("" when the environment says everything, as for gs://
// and az://): the report of a small sweep and two corpus folders uploaded
// to it equals the report of the folders, byte for byte but where it says
// the logs were read from; then the sweep's parts are collected into the
// bucket (each shard twice, a rerun overwriting its objects) and merged
// from it into the report a direct build writes.
func testEmulatedBucket(t *testing.T, base, query string) {
	t.Helper()
	b, err := blob.OpenBucket(context.Background(), gocloudURL(base)+query)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, in := range []struct{ name, dir string }{
		{"sweep12", filepath.Join("testdata", "sweep12")}, // go run ./examples/synth -sweep -runs 12 -tags 3 -steps 40
		{"lightning-tbx-sweep", sharedCorpus(t, "lightning-tbx-sweep")},
		{"keras-tf22-images", sharedCorpus(t, "keras-tf22-images")}, // images read back by range
	} {
		t.Run(in.name, func(t *testing.T) {
			upload(t, b, in.name, in.dir)
			want := reportFiles(t, "", "L="+in.dir)
			got := reportFiles(t, "", "L="+base+"/"+in.name+query)
			compareBucketReport(t, want, got, in.dir, base+"/"+in.name)
		})
	}
	// Parts written to the bucket and merged from it, a rerun of a shard
	// overwriting its objects (docs/SHARDS.md, parts in a bucket).
	t.Run("parts", func(t *testing.T) {
		logs := "L=" + base + "/sweep12" + query
		want := reportFiles(t, "", logs)
		for i := range 3 {
			out := base + "/parts/part-" + strconv.Itoa(i) + query
			for range 2 {
				if code, stderr := runCmd(t, "collect", "--quiet", "--shard", strconv.Itoa(i)+"/3", "-o", out, logs); code != 0 {
					t.Fatalf("collect -o %s: exit status %d\n%s", out, code, stderr)
				}
			}
		}
		got := reportFiles(t, "merge", base+"/parts/"+query, base+"/sweep12"+query)
		compareBucketReport(t, want, got, "", "")
	})
}

// gocloudURL is base with gocloud's scheme: az:// is its azblob://.
func gocloudURL(base string) string {
	if rest, ok := strings.CutPrefix(base, "az://"); ok {
		return "azblob://" + rest
	}
	return base
}

// checkUnreachable checks that trainreport fails with one line naming url
// and each of want: the report of the log directory url, or, when write is
// set, a part collected into url/part-0.
func checkUnreachable(t *testing.T, url string, write bool, want ...string) {
	t.Helper()
	args := []string{"", "--quiet", "-o", t.TempDir(), url}
	if write {
		args = []string{"collect", "--quiet", "--shard", "0/1", "-o", url + "/part-0", "L=" + filepath.Join("testdata", "sweep12")}
	}
	code, stderr := runCmd(t, args[0], args[1:]...)
	t.Logf("trainreport %s: exit status %d: %s", args, code, stderr)
	if code == 0 || !strings.Contains(stderr, url) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
		t.Errorf("trainreport %s: exit status %d, want one line naming %s:\n%s", args, code, url, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("trainreport %s: the error does not say %s:\n%s", args, w, stderr)
		}
	}
}
