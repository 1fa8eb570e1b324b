package main

import (
	"context"
	"net/http"
	"path/filepath"
	"strconv"
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
	query := "?endpoint=" + endpoint + "&use_path_style=true&region=us-east-1"
	b, err := blob.OpenBucket(context.Background(), "s3://logs"+query)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, in := range []struct{ name, dir string }{
		{"sweep12", filepath.Join("testdata", "sweep12")},
		{"lightning-tbx-sweep", sharedCorpus(t, "lightning-tbx-sweep")},
		{"keras-tf22-images", sharedCorpus(t, "keras-tf22-images")},
	} {
		t.Run(in.name, func(t *testing.T) {
			upload(t, b, in.name, in.dir)
			want := reportFiles(t, "", "L="+in.dir)
			got := reportFiles(t, "", "L=s3://logs/"+in.name+query)
			compareBucketReport(t, want, got, in.dir, "s3://logs/"+in.name)
		})
	}
	// Parts written to moto and merged from it, a rerun of a shard
	// overwriting its objects (docs/SHARDS.md, parts in a bucket).
	t.Run("parts", func(t *testing.T) {
		logs := "L=s3://logs/sweep12" + query
		want := reportFiles(t, "", logs)
		for i := range 3 {
			out := "s3://logs/parts/part-" + strconv.Itoa(i) + query
			for range 2 {
				if code, stderr := runCmd(t, "collect", "--quiet", "--shard", strconv.Itoa(i)+"/3", "-o", out, logs); code != 0 {
					t.Fatalf("collect -o %s: exit status %d\n%s", out, code, stderr)
				}
			}
		}
		got := reportFiles(t, "merge", "s3://logs/parts/"+query, "s3://logs/sweep12"+query)
		compareBucketReport(t, want, got, "", "")
	})
}
