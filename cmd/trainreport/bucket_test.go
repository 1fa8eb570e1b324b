package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/internal/testbucket"
	"gocloud.dev/blob"
	_ "gocloud.dev/blob/s3blob" // the tests' binary reads s3:// as one built with -tags s3 does
)

// fakeS3 is an S3 server in the test's process: gofakes3 over memory,
// behind an httptest server that counts the requests it answers.
type fakeS3 struct {
	srv      *httptest.Server
	backend  *s3mem.Backend
	requests atomic.Int64
	lists    atomic.Int64 // of them, listings of a bucket
	inFlight atomic.Int64
	maxIn    atomic.Int64 // the most requests answered at once
}

// startS3 starts a fake S3 server and points the AWS SDK's standard
// environment at fake credentials, so no file of the machine is read.
func startS3(t *testing.T) *fakeS3 {
	t.Helper()
	testbucket.SetAWSEnv(t)
	s := &fakeS3{backend: s3mem.New()}
	h := gofakes3.New(s.backend).Server()
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		n := s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		for m := s.maxIn.Load(); n > m && !s.maxIn.CompareAndSwap(m, n); m = s.maxIn.Load() {
		}
		// Path-style: /bucket or /bucket/ with a GET is a listing.
		if r.Method == http.MethodGet && strings.Count(strings.TrimSuffix(r.URL.Path, "/"), "/") == 1 {
			s.lists.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// query is the gocloud URL query that reaches the server: a local server
// takes path-style requests.
func (s *fakeS3) query() string {
	return "?endpoint=" + s.srv.URL + "&use_path_style=true&region=us-east-1"
}

// url is the log directory URL of prefix in bucket on the server.
func (s *fakeS3) url(bucket, prefix string) string {
	return "s3://" + bucket + "/" + prefix + s.query()
}

// bucket opens bucket on the server for the test to write in, creating it.
func (s *fakeS3) bucket(t *testing.T, name string) *blob.Bucket {
	t.Helper()
	if err := s.backend.CreateBucket(name); err != nil && !gofakes3.HasErrorCode(err, gofakes3.ErrBucketAlreadyExists) {
		t.Fatal(err)
	}
	b, err := blob.OpenBucket(context.Background(), "s3://"+name+s.query())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// upload copies every file below dir to bucket under prefix, as
// `aws s3 sync` does.
func (s *fakeS3) upload(t *testing.T, bucket, prefix, dir string) {
	t.Helper()
	upload(t, s.bucket(t, bucket), prefix, dir)
}

// upload copies every file below dir to b under prefix.
func upload(t *testing.T, b *blob.Bucket, prefix, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return b.WriteAll(context.Background(), prefix+"/"+filepath.ToSlash(rel), data, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// reportFiles builds the report of the log directory arguments and returns
// every file it wrote: the site's by their path in it, and the single
// file, the markdown summary and summary.json beside it.
func reportFiles(t *testing.T, cmd string, logdirs ...string) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	site := filepath.Join(dir, "report")
	args := append([]string{"--quiet", "-o", site, "--single-file", filepath.Join(dir, "report.html"),
		"--markdown", filepath.Join(dir, "report.md")}, logdirs...)
	if code, stderr := runCmd(t, cmd, args...); code != 0 {
		t.Fatalf("trainreport %s %v: exit status %d\n%s", cmd, args, code, stderr)
	}
	out := siteFiles(t, site)
	out["../report.html"] = readFile(t, filepath.Join(dir, "report.html"))
	out["../report.md"] = readFile(t, filepath.Join(dir, "report.md"))
	return out
}

// TestBucketReportEqualsDisk is the promise of reading a bucket: the
// report of a log directory uploaded to S3 is the report of the folder,
// byte for byte in every file, but for where it says the logs were read
// from (the URL, without its query, instead of the path). The inputs: the
// demo (images, audio, tensors, graphs, embeddings read back at render
// time through ranges), corpus folders (a projector, ONNX graphs, files
// truncated mid-record) and sweeps.
func TestBucketReportEqualsDisk(t *testing.T) {
	s := startS3(t)
	inputs := []struct{ name, dir string }{
		{"demo", demoLogs(t)},
		{"tbx12-2018-no-file-version", sharedCorpus(t, "tbx12-2018-no-file-version")},
		{"tf1-estimator-truncated", sharedCorpus(t, "tf1-estimator-truncated")},
		{"lightning-tbx-sweep", sharedCorpus(t, "lightning-tbx-sweep")},
		{"sweep12", filepath.Join("testdata", "sweep12")}, // go run ./examples/synth -sweep -runs 12 -tags 3 -steps 40
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			s.upload(t, "logs", "team/"+in.name, in.dir)
			want := reportFiles(t, "", "L="+in.dir)
			got := reportFiles(t, "", "L="+s.url("logs", "team/"+in.name))
			compareBucketReport(t, want, got, in.dir, "s3://logs/team/"+in.name)
			for name, b := range got {
				for _, secret := range []string{s.srv.URL, strings.TrimPrefix(s.srv.URL, "http://"), "use_path_style", "endpoint=", "AKIDTEST", testbucket.Secret} {
					if bytes.Contains(b, []byte(secret)) {
						t.Errorf("%s holds %q", name, secret)
					}
				}
			}
		})
	}
}

// compareBucketReport checks that got, read from the bucket at url, is want,
// read from dir, once url is put back for dir where the report names its
// log directory (as is, and escaped as JSON and JavaScript strings do).
func compareBucketReport(t *testing.T, want, got map[string][]byte, dir, url string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d files from the bucket, %d from the folder", len(got), len(want))
	}
	for name, w := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("%s missing from the bucket's report", name)
			continue
		}
		for _, esc := range []func(string) string{
			func(s string) string { return s },
			func(s string) string { return strings.ReplaceAll(s, "/", `\/`) },
		} {
			g = bytes.ReplaceAll(g, []byte(esc(url)), []byte(esc(dir)))
		}
		if !bytes.Equal(g, w) {
			i := 0
			for i < min(len(g), len(w)) && g[i] == w[i] {
				i++
			}
			t.Errorf("%s differs from the folder's at byte %d:\nbucket: %q\nfolder: %q", name, i,
				g[max(0, i-80):min(len(g), i+80)], w[max(0, i-80):min(len(w), i+80)])
		}
	}
}

// TestBucketShardsMerge collects shards of a sweep from the bucket and
// merges them; the merge reads the images back from the bucket too (the
// demo's), through the URL its parts name, its options from the
// environment.
func TestBucketShardsMerge(t *testing.T) {
	s := startS3(t)
	demo := demoLogs(t)
	s.upload(t, "logs", "demo", demo)
	want := reportFiles(t, "", "D="+s.url("logs", "demo"))
	dir := t.TempDir()
	parts := collectShards(t, dir, 3, []string{"D=" + s.url("logs", "demo")})
	for _, p := range parts {
		m := readFile(t, filepath.Join(p, partMarker))
		if bytes.Contains(m, []byte(s.srv.URL)) || bytes.Contains(m, []byte("?")) {
			t.Errorf("%s names the query: %s", p, m)
		}
	}
	// The parts name s3://logs/demo: the query (the endpoint, path-style
	// addressing) is given to merge again.
	got := reportFiles(t, "merge", append(parts, s.url("logs", "demo"))...)
	compareBucketReport(t, want, got, "", "")
}

// TestBucketRefusals: a URL with credentials in it, a missing bucket, a
// missing prefix and bad credentials each give one clear line, never
// echoing a secret; an s3:// of a scheme not compiled in says how to build
// one that has it.
func TestBucketRefusals(t *testing.T) {
	s := startS3(t)
	s.upload(t, "logs", "sweep", filepath.Join("testdata", "sweep12"))
	for _, c := range []struct {
		name, url, want string
	}{
		{"userinfo", "s3://alice:hunter2@logs/sweep" + s.query(), "user information"},
		{"access key", s.url("logs", "sweep") + "&access_key=hunter2", "credential"},
		{"missing bucket", s.url("nobucket", "sweep"), "the bucket does not exist"},
		{"missing prefix", s.url("logs", "sweeep"), "no object under this prefix"},
		{"dot-dot prefix", s.url("logs", "sweep/../x"), "not a plain"},
		{"gcs not built in", "gs://logs/sweep", "built without gs support: build with -tags gcs"},
		{"azure not built in", "az://logs/sweep", "built without az support: build with -tags azure"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stderr := runCmd(t, "", "--quiet", "-o", filepath.Join(t.TempDir(), "r"), c.url)
			if code == 0 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit status %d, stderr %q: want an error saying %q", code, stderr, c.want)
			}
			if strings.Contains(stderr, "hunter2") || strings.Contains(stderr, "alice") || strings.Count(stderr, "\n") > 1 {
				t.Errorf("stderr %q: not one line without the secret", stderr)
			}
		})
	}
	t.Run("bad credentials", func(t *testing.T) {
		// gofakes3 takes any key: a server that refuses every request
		// stands for one that refuses these.
		deny := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>InvalidAccessKeyId</Code><Message>The AWS Access Key Id you provided does not exist in our records.</Message></Error>`)
		}))
		defer deny.Close()
		code, stderr := runCmd(t, "", "--quiet", "-o", filepath.Join(t.TempDir(), "r"), "s3://logs/sweep?endpoint="+deny.URL+"&use_path_style=true")
		if code == 0 || !strings.Contains(stderr, "access denied: check the credentials") || strings.Count(stderr, "\n") > 1 {
			t.Errorf("exit status %d, stderr %q", code, stderr)
		}
	})
}

// TestBucketHostileKeys uploads keys that are not plain names beside a
// run: each is refused with a warning naming it quoted, none is read, and
// the run is read whole.
func TestBucketHostileKeys(t *testing.T) {
	s := startS3(t)
	s.upload(t, "logs", "h", filepath.Join("testdata", "sweep12", "trial00"))
	b := s.bucket(t, "logs")
	ev := readFile(t, filepath.Join("testdata", "sweep12", "trial00", "events.out.tfevents.1700000000.synth.0.0.v2"))
	hostile := []string{
		"h/../escape/events.out.tfevents.1.x",
		"h//events.out.tfevents.2.x",
		"h/back\\slash/events.out.tfevents.3.x",
		"h/bad\xffutf8/events.out.tfevents.4.x",
		"h/ctl\x1b[31m/events.out.tfevents.5.x",
		"h/./events.out.tfevents.6.x",
	}
	_ = b
	for _, k := range hostile {
		// Straight to the backend: gocloud refuses to write some of them.
		if _, err := s.backend.PutObject("logs", k, map[string]string{}, bytes.NewReader(ev), int64(len(ev)), nil); err != nil {
			t.Fatalf("%q: %v", k, err)
		}
	}
	logdirs, err := collect.ParseLogdirs([]string{"H=" + s.url("logs", "h")})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := collect.Collect(t.Context(), logdirs, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rep.Close()
	if len(rep.Runs) != 1 || rep.Runs[0].Path != "." {
		var names []string
		for _, r := range rep.Runs {
			names = append(names, r.Path)
		}
		t.Fatalf("runs %q: want the one run at the top", names)
	}
	var warned []string
	for _, w := range rep.Warnings {
		warned = append(warned, w.File+": "+w.Msg)
		if !strings.HasPrefix(w.File, "s3://logs/h/\"") || strings.ContainsRune(w.File, 0x1b) || !strings.Contains(w.Msg, "not a plain name") {
			t.Errorf("warning %q: %s", w.File, w.Msg)
		}
	}
	// gofakes3 answers the control character and the invalid UTF-8 as
	// U+FFFD (XML holds neither): prefixes under which nothing is found,
	// so nothing is read; logfs's tests refuse the keys themselves.
	if len(warned) < 4 {
		t.Errorf("%d warnings for %d hostile keys:\n%s", len(warned), len(hostile), strings.Join(warned, "\n"))
	}
}

// TestBucketListingIsPaged lists a bucket of 3,000 run prefixes: the top
// level takes pages of 1,000 (3 listings of it, not one of 3,000), each
// prefix one more, and no more requests are ever in flight than the
// documented bound. Three pages show the paging; gofakes3 scans every key
// per listing, so the 10,000 prefixes this once listed cost minutes.
func TestBucketListingIsPaged(t *testing.T) {
	s := startS3(t)
	b := s.bucket(t, "many")
	// More runs than a page of listing holds (1,000): enough to prove the
	// paging; 3,000 took 37 s of the busy machine, most of it the one
	// listing per run.
	const runs = 1200
	ev := readFile(t, filepath.Join("testdata", "sweep12", "trial00", "events.out.tfevents.1700000000.synth.0.0.v2"))
	for i := range runs {
		// Straight to the backend: 1,200 PUTs through HTTP would cost
		// seconds the listing does not need.
		if _, err := s.backend.PutObject("many", fmt.Sprintf("sweep/run%05d/events.out.tfevents.%d.x", i, i),
			map[string]string{}, bytes.NewReader(ev[:64]), 64, nil); err != nil {
			t.Fatal(err)
		}
	}
	_ = b
	s.requests.Store(0)
	s.lists.Store(0)
	d, err := logfs.OpenURL(t.Context(), s.url("many", "sweep"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var files int
	err = d.Walk(func(name string, size int64) error {
		if size != 64 {
			t.Errorf("%s: size %d, want 64 from the listing", name, size)
		}
		files++
		return nil
	}, func(name string, err error) { t.Errorf("%s refused: %v", name, err) })
	if err != nil {
		t.Fatal(err)
	}
	if files != runs {
		t.Errorf("%d files walked, want %d", files, runs)
	}
	// 1 to open, 2 pages of the top (3 when the server cannot tell the
	// 2nd is the last), 1,200 prefixes of one page each.
	if got, want := s.lists.Load(), int64(1+(runs+999)/1000+runs); got != want && got != want+1 {
		t.Errorf("%d listings, want %d", got, want)
	}
	if got := s.requests.Load(); got != s.lists.Load() {
		t.Errorf("%d requests besides the listings: sizes should come from them", got-s.lists.Load())
	}
	if m := s.maxIn.Load(); m > 16 || m < 2 {
		t.Errorf("at most %d requests at once, want 2 to 16", m)
	}
}

// TestBucketCancel cancels a build reading a bucket: it ends with the
// context's error, not with a report, and requests stop.
func TestBucketCancel(t *testing.T) {
	s := startS3(t)
	s.upload(t, "logs", "demo", demoLogs(t))
	ctx, cancel := context.WithCancel(context.Background())
	// Cancelled at the first read of an event file, mid-collection.
	var once atomic.Bool
	h := s.srv.Config.Handler
	s.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Range") != "" && once.CompareAndSwap(false, true) {
			cancel()
		}
		h.ServeHTTP(w, r)
	})
	var stderr bytes.Buffer
	code := run(ctx, []string{"--quiet", "-o", filepath.Join(t.TempDir(), "r"), s.url("logs", "demo")}, io.Discard, &stderr)
	if code == 0 || !once.Load() {
		t.Fatalf("exit status %d after cancelling (cancelled: %v)\n%s", code, once.Load(), stderr.String())
	}
	// No request may follow the build's return: every goroutine of the
	// build must end (one left could send any time), and then what the
	// server still answers are requests sent before, which must end too.
	if left := buildGoroutinesLeft(5 * time.Second); left != "" {
		t.Errorf("goroutines of the build still running after it returned:\n%s", left)
	}
	// Close returns once the server has answered them.
	s.srv.Close()
	if !strings.Contains(stderr.String(), "cancel") {
		t.Errorf("stderr %q does not say it was cancelled", stderr.String())
	}
}

// buildGoroutinesLeft waits up to timeout for every goroutine running the
// packages of a build (collect, internal, render) to end, and returns the
// stacks of those still running then ("" when none). A goroutine's end
// sends no event, and one that has just signalled its wait group is still
// on its way out when the build returns: between looks it yields the
// processor to them, with no pause of its own.
func buildGoroutinesLeft(timeout time.Duration) string {
	end := time.Now().Add(timeout)
	for {
		var left []string
		buf := make([]byte, 1<<20)
		for {
			n := runtime.Stack(buf, true)
			if n < len(buf) {
				buf = buf[:n]
				break
			}
			buf = make([]byte, 2*len(buf))
		}
		for _, g := range strings.Split(string(buf), "\n\n") {
			for _, pkg := range []string{"/collect.", "/collect/", "/internal/", "/render."} {
				if strings.Contains(g, "github.com/trainreport/trainreport"+pkg) {
					left = append(left, g)
					break
				}
			}
		}
		if len(left) == 0 || time.Now().After(end) {
			return strings.Join(left, "\n\n")
		}
		runtime.Gosched()
	}
}

// TestBucketTitleAndName: a bucket log directory is named and titled by
// its URL without query, by the rule a path follows (a generic last
// folder takes the one above).
func TestBucketTitleAndName(t *testing.T) {
	args := []string{"s3://b/mnist/runs?endpoint=http://h:1", "gs://b2"}
	logdirs, err := collect.ParseLogdirArgs(args)
	if err != nil {
		t.Fatal(err)
	}
	if logdirs[0].Name != "runs" || logdirs[1].Name != "b2" {
		t.Errorf("names %q, %q", logdirs[0].Name, logdirs[1].Name)
	}
	if got := defaultTitle(logdirs); got != "mnist/runs, b2" {
		t.Errorf("title %q", got)
	}
}

// TestBucketListingThatNeverEnds: a server answering every listing as
// truncated with a key and a new token, forever, kept a report listing
// until killed (2,246 requests in 120 s). The report now fails after a
// bounded number of requests, with one line naming the log directory
// and the bound; so does a server repeating its token, when it comes
// back.
func TestBucketListingThatNeverEnds(t *testing.T) {
	testbucket.SetAWSEnv(t)
	for _, c := range []struct {
		name      string
		same      bool
		max       int64
		wantError string
	}{
		{"new tokens", false, 4000, "requests past the directories' first ones"},
		{"same token", true, 2100, "which would list the same pages forever"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var lists atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := lists.Add(1)
				token := "t" + strconv.FormatInt(n, 10)
				if c.same {
					token = "again"
				}
				prefix := r.URL.Query().Get("prefix")
				w.Header().Set("Content-Type", "application/xml")
				fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>logs</Name><Prefix>%s</Prefix>`+
					`<IsTruncated>true</IsTruncated><NextContinuationToken>%s</NextContinuationToken>`+
					`<Contents><Key>%sf%09d</Key><Size>1</Size><LastModified>2023-11-14T22:13:20.000Z</LastModified><ETag>"0"</ETag></Contents></ListBucketResult>`,
					prefix, token, prefix, n)
			}))
			defer srv.Close()
			code, stderr := runCmd(t, "", "--quiet", "-o", filepath.Join(t.TempDir(), "r"),
				"s3://logs/h?endpoint="+srv.URL+"&use_path_style=true&region=us-east-1")
			if code == 0 || !strings.Contains(stderr, "listing s3://logs/h stopped: ") || !strings.Contains(stderr, c.wantError) ||
				strings.Count(stderr, "\n") > 1 || strings.Contains(stderr, srv.URL) {
				t.Errorf("exit status %d, stderr %q", code, stderr)
			}
			// This binary has no -tags s3, so the listing sees tokens as
			// gocloud's ListPage returns them, each after up to 1,000
			// requests for pages of a key: the token comes back at the
			// second ListPage. With the tag, as trainreport is built, the
			// listing sees each request's token and stops at the
			// second request (collect/logfs's TestS3ListingThatNeverEnds).
			if n := lists.Load(); n > c.max {
				t.Errorf("%d requests, want at most %d", n, c.max)
			}
		})
	}
}
