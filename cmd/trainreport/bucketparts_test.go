package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"gocloud.dev/blob"

	"github.com/trainreport/trainreport/internal/testbucket"
)

// bucketObjects returns every object of b below prefix, by key.
func bucketObjects(t *testing.T, b *blob.Bucket, prefix string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	it := b.List(&blob.ListOptions{Prefix: prefix})
	for {
		o, err := it.Next(context.Background())
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			t.Fatal(err)
		}
		data, err := b.ReadAll(context.Background(), o.Key)
		if err != nil {
			t.Fatal(err)
		}
		out[o.Key] = data
	}
	return out
}

// secrets are what must never be written into a part, a report or a
// message: the fake server's endpoint, the URL's query and the
// environment's credentials.
func (s *fakeS3) secrets() []string {
	return []string{s.srv.URL, strings.TrimPrefix(s.srv.URL, "http://"), "use_path_style", "endpoint=", "AKIDTEST", testbucket.Secret}
}

// noSecret fails the test when b, named name, holds one of s's secrets.
func (s *fakeS3) noSecret(t *testing.T, name string, b []byte) {
	t.Helper()
	for _, secret := range s.secrets() {
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s holds %q", name, secret)
		}
	}
}

// collectToBucket runs collect of shard i of n of logdirs into the bucket
// URL out and returns its stderr (not quiet: the message names out).
func collectToBucket(t *testing.T, i, n int, out string, logdirs ...string) string {
	t.Helper()
	args := append([]string{"--shard", fmt.Sprintf("%d/%d", i, n), "-o", out}, logdirs...)
	code, stderr := runCmd(t, "collect", args...)
	if code != 0 {
		t.Fatalf("collect %v: exit status %d\n%s", args, code, stderr)
	}
	return stderr
}

// TestBucketPartsMerge is the promise of sharding with both the logs and
// the parts in a bucket: 3 shards of the demo read from the bucket and
// written to it as objects, merged from the bucket (each part named, and
// the prefix holding them), give the report built directly from the
// bucket, byte for byte in every file. No object written, no file of the
// report and no message names the endpoint, the query or a credential.
func TestBucketPartsMerge(t *testing.T) {
	s := startS3(t)
	s.upload(t, "logs", "demo", demoLogs(t))
	parts := s.bucket(t, "parts")
	logs := "D=" + s.url("logs", "demo")
	want := reportFiles(t, "", logs)

	var urls []string
	for i := range 3 {
		u := s.url("parts", fmt.Sprintf("sweep/part-%d", i))
		stderr := collectToBucket(t, i, 3, u, logs)
		s.noSecret(t, "collect's stderr", []byte(stderr))
		if !strings.Contains(stderr, fmt.Sprintf("written to s3://parts/sweep/part-%d ", i)) {
			t.Errorf("collect's stderr %q does not name the part's URL", stderr)
		}
		urls = append(urls, u)
	}
	objs := bucketObjects(t, parts, "")
	var keys []string
	for k, b := range objs {
		keys = append(keys, k)
		s.noSecret(t, k, b)
	}
	slices.Sort(keys)
	wantKeys := []string{"sweep/part-0/model.bin", "sweep/part-0/shard.json", "sweep/part-1/model.bin",
		"sweep/part-1/shard.json", "sweep/part-2/model.bin", "sweep/part-2/shard.json"}
	if !slices.Equal(keys, wantKeys) {
		t.Fatalf("objects written %q, want %q", keys, wantKeys)
	}
	if m := objs["sweep/part-1/shard.json"]; !bytes.Contains(m, []byte(`"url": "s3://logs/demo"`)) {
		t.Errorf("shard.json does not name the logs by their URL without query:\n%s", m)
	}

	t.Run("parts named", func(t *testing.T) {
		got := reportFiles(t, "merge", append(slices.Clone(urls), s.url("logs", "demo"))...)
		compareBucketReport(t, want, got, "", "")
		for name, b := range got {
			s.noSecret(t, name, b)
		}
	})
	t.Run("prefix of parts", func(t *testing.T) {
		got := reportFiles(t, "merge", "s3://parts/sweep/"+s.query(), s.url("logs", "demo"))
		compareBucketReport(t, want, got, "", "")
	})
	t.Run("rerun overwrites", func(t *testing.T) {
		// A shard run again finds only its own objects at its prefix.
		collectToBucket(t, 1, 3, urls[1], logs)
		got := reportFiles(t, "merge", "s3://parts/sweep/"+s.query(), s.url("logs", "demo"))
		compareBucketReport(t, want, got, "", "")
	})
	t.Run("failed rerun leaves the part", func(t *testing.T) {
		// model.bin is streamed by one upload as collection goes: a
		// collection that fails midway, some of the model written,
		// drops the upload and leaves the earlier part whole.
		before := bucketObjects(t, parts, "sweep/part-1/")
		ctx := context.Background()
		b, err := openBucketPart(ctx, urls[1], nil)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		stop := errors.New("stopped midway")
		_, err = writeBucketPart(ctx, b, func(w io.Writer) (*partModelWriter, error) {
			w.Write(bytes.Repeat([]byte("x"), 1<<20))
			return &partModelWriter{}, stop
		}, func(*partModelWriter) ([]byte, error) {
			t.Fatal("the marker was made for a failed collection")
			return nil, nil
		})
		if !errors.Is(err, stop) {
			t.Errorf("writeBucketPart: %v, want %v", err, stop)
		}
		after := bucketObjects(t, parts, "sweep/part-1/")
		if len(after) != len(before) {
			t.Fatalf("objects %d, were %d", len(after), len(before))
		}
		for k, v := range before {
			if !bytes.Equal(after[k], v) {
				t.Errorf("%s changed", k)
			}
		}
		got := reportFiles(t, "merge", "s3://parts/sweep/"+s.query(), s.url("logs", "demo"))
		compareBucketReport(t, want, got, "", "")
	})
}

// TestBucketPartRefusals: merge refuses a part in a bucket without its
// marker, a missing shard and a model.bin that is not the marker's;
// collect refuses to write into a prefix holding other objects, into a log
// directory, or at the top of a bucket. Each says so in one message that
// names no secret, and nothing is written.
func TestBucketPartRefusals(t *testing.T) {
	s := startS3(t)
	s.upload(t, "logs", "demo", demoLogs(t))
	parts := s.bucket(t, "parts")
	logs := "D=" + s.url("logs", "demo")
	for i := range 3 {
		collectToBucket(t, i, 3, s.url("parts", fmt.Sprintf("p/part-%d", i)), logs)
	}
	ctx := context.Background()
	model0, err := parts.ReadAll(ctx, "p/part-0/model.bin")
	if err != nil {
		t.Fatal(err)
	}
	merge := func(t *testing.T, want string, args ...string) {
		t.Helper()
		out := t.TempDir() + "/report"
		code, stderr := runCmd(t, "merge", append([]string{"--quiet", "-o", out}, append(args, s.url("logs", "demo"))...)...)
		if code == 0 || !strings.Contains(stderr, want) {
			t.Errorf("merge %q: exit status %d, stderr %q: want an error saying %q", args, code, stderr, want)
		}
		s.noSecret(t, "stderr", []byte(stderr))
	}
	all := "s3://parts/p/" + s.query()

	t.Run("no marker", func(t *testing.T) {
		m, err := parts.ReadAll(ctx, "p/part-1/shard.json")
		if err != nil {
			t.Fatal(err)
		}
		if err := parts.Delete(ctx, "p/part-1/shard.json"); err != nil {
			t.Fatal(err)
		}
		defer parts.WriteAll(ctx, "p/part-1/shard.json", m, nil)
		merge(t, "part s3://parts/p/part-1 has no shard.json: its collect did not finish", all)
		merge(t, "part s3://parts/p/part-1 has no shard.json: its collect did not finish",
			s.url("parts", "p/part-0"), s.url("parts", "p/part-1"), s.url("parts", "p/part-2"))
	})
	t.Run("log directory not named", func(t *testing.T) {
		// A part names the bucket of its logs; merge reads a bucket only
		// when its own arguments name it, so a forged part cannot make
		// it publish another bucket with the merge's credentials.
		out := t.TempDir() + "/report"
		code, stderr := runCmd(t, "merge", "--quiet", "-o", out, all)
		want := "the parts read the log directory s3://logs/demo from a bucket: give its URL among merge's arguments"
		if code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("merge without the logs' URL: exit status %d, stderr %q: want %d saying %q", code, stderr, exitUsage, want)
		}
		s.noSecret(t, "stderr", []byte(stderr))
	})
	t.Run("missing shard", func(t *testing.T) {
		merge(t, "2 of 3 shards given: shard 2 missing", s.url("parts", "p/part-0"), s.url("parts", "p/part-1"))
	})
	t.Run("not a part", func(t *testing.T) {
		merge(t, "s3://parts/p/nothing holds no part-* prefix", s.url("parts", "p/part-0"), s.url("parts", "p/part-1"), s.url("parts", "p/nothing/"))
		merge(t, "s3://parts/p/part-3 is neither a part (it has no shard.json) nor a log directory of the parts",
			s.url("parts", "p/part-0"), s.url("parts", "p/part-1"), s.url("parts", "p/part-2"), s.url("parts", "p/part-3"))
	})
	t.Run("model changed", func(t *testing.T) {
		m2, err := parts.ReadAll(ctx, "p/part-2/model.bin")
		if err != nil {
			t.Fatal(err)
		}
		if err := parts.WriteAll(ctx, "p/part-2/model.bin", model0, nil); err != nil {
			t.Fatal(err)
		}
		defer parts.WriteAll(ctx, "p/part-2/model.bin", m2, nil)
		// Another part's model.bin is not of the size this marker lists.
		want := fmt.Sprintf("part s3://parts/p/part-2: model.bin is cut short: %d bytes, its shard.json lists %d", len(model0), len(m2))
		switch {
		case len(model0) > len(m2):
			want = fmt.Sprintf("part s3://parts/p/part-2: model.bin is longer than the %d bytes its shard.json lists", len(m2))
		case len(model0) == len(m2):
			want = "part s3://parts/p/part-2: model.bin does not match the hash its shard.json holds"
		}
		merge(t, want, all)
	})

	collect := func(t *testing.T, out, want string) {
		t.Helper()
		code, stderr := runCmd(t, "collect", "--quiet", "--shard", "0/3", "-o", out, logs)
		if code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("collect -o %s: exit status %d, stderr %q: want status %d saying %q", out, code, stderr, exitUsage, want)
		}
		s.noSecret(t, "stderr", []byte(stderr))
	}
	t.Run("prefix holding other objects", func(t *testing.T) {
		if err := parts.WriteAll(ctx, "q/notes/readme.txt", []byte("mine"), nil); err != nil {
			t.Fatal(err)
		}
		collect(t, s.url("parts", "q"), `-o s3://parts/q holds "notes/readme.txt", which trainreport did not write`)
		objs := bucketObjects(t, parts, "q/")
		if len(objs) != 1 || string(objs["q/notes/readme.txt"]) != "mine" {
			t.Errorf("the prefix holds %d objects after the refusal, want its one object untouched", len(objs))
		}
	})
	t.Run("inside the logs", func(t *testing.T) {
		collect(t, s.url("logs", "demo/part-0"), "-o s3://logs/demo/part-0 would write into the log directory s3://logs/demo")
		collect(t, s.url("logs", ""), "would write into the log directory s3://logs/demo")
	})
	t.Run("top of a bucket", func(t *testing.T) {
		collect(t, s.url("parts", ""), "-o s3://parts is the top of a bucket")
	})
}
