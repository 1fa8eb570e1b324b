//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// tbResult is one measured TensorBoard run.
type tbResult struct {
	Loaded sample // launch until every run's last scalar step is served
	Served sample // launch until every point of every scalar tag was served once

	Up           time.Duration // launch until the HTTP server first answered
	Processes    int           // processes in the tree at "loaded"
	PollTime     time.Duration // summed latency of our requests before "loaded"
	Polls        int           // requests before "loaded"
	Granularity  time.Duration // from the start of the last probe that found a run not loaded to "loaded"
	SampledRSSKB int64         // largest sum of VmRSS over the tree seen while polling
	Mismatches   []string      // tags served with another point count than trainreport reads
	ServedPoints int64         // points in the verification responses
	LateTags     int           // tags whose last step was not served yet at "loaded"
}

// tbConfig is how to run and poll TensorBoard.
type tbConfig struct {
	tensorboard string // the tensorboard executable
	logdir      string
	tmp         string // parent of the per-run temporary directory
	fast        bool   // --load_fast
	samples     int    // --samples_per_plugin scalars=N
	poll        time.Duration
	timeout     time.Duration
	exp         *expectation
	verify      bool // also read every scalar tag in full ("served")
}

// overheadFactor bounds the cost of the fallback probe, which reads a whole
// scalar series: a run's probe is repeated no sooner than overheadFactor
// times the latency of its last one times the runs pending, so that serving
// it takes at most 1/overheadFactor of the server's time. The image probe
// is cheap (a few milliseconds of the server's CPU) and repeats every -poll
// after the previous answer.
const overheadFactor = 20

// measureTensorBoard launches tensorboard, polls its HTTP API on 127.0.0.1
// until it serves the last step of every scalar tag ("loaded"), then reads
// every scalar tag once in full ("served"), and kills the process tree.
//
// Polling the scalar series themselves every 200 ms would cost the server a
// full series per request (tens of MB of JSON, seconds of Python each at
// 250,000 points) and slow the loader being measured, so each run is probed
// in two phases: first, when the run has an image tag, its images endpoint
// (at most 10 items: TensorBoard's reservoirs keep the newest item, so the
// last step shows as soon as it is loaded) until it serves the image tag's
// last step; then one scalar tag of the run until it serves that tag's last
// step. Both loaders commit a run's records in file order, so when a run's
// last record is served, its earlier ones are too; the verification read
// afterwards checks it for every tag.
func measureTensorBoard(ctx context.Context, c tbConfig) (*tbResult, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(c.tmp, "tensorboard-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	logPath := filepath.Join(tmp, "tensorboard.log")
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	cmd := exec.Command(c.tensorboard, "--logdir", c.logdir, "--load_fast="+strconv.FormatBool(c.fast),
		"--host", "127.0.0.1", "--port", strconv.Itoa(port),
		"--samples_per_plugin", "scalars="+strconv.Itoa(c.samples))
	// TensorBoard's info files and the data server's port file go to
	// TMPDIR: ours, removed afterwards.
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	pid := cmd.Process.Pid
	lastTree := processTree(pid)
	defer func() {
		if err := killTree(pid, append(lastTree, processTree(pid)...), exited); err != nil {
			fmt.Fprintf(os.Stderr, "benchpeers: %v\n", err)
		}
	}()

	ctx, cancel := context.WithDeadline(ctx, start.Add(c.timeout))
	defer cancel()
	p := &poller{ctx: ctx, base: "http://127.0.0.1:" + strconv.Itoa(port), exited: exited,
		client: &http.Client{Timeout: c.timeout, Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 4}}}
	fail := func(err error) (*tbResult, error) {
		logf.Sync()
		b, _ := os.ReadFile(logPath)
		if len(b) > 2000 {
			b = b[len(b)-2000:]
		}
		return nil, fmt.Errorf("tensorboard --load_fast=%v: %w; its log ends with:\n%s", c.fast, err, b)
	}
	res := &tbResult{}
	observe := func() {
		lastTree = processTree(pid)
		_, _, rss := treeUsage(lastTree)
		res.SampledRSSKB = max(res.SampledRSSKB, rss)
	}

	// The server answers once its plugins are loaded.
	for {
		if _, status, err := p.get("/data/runs"); err == nil && status == http.StatusOK {
			res.Up = time.Since(start)
			break
		} else if err := p.wait(c.poll); err != nil {
			return fail(err)
		}
	}

	// Per run: phase 0 polls its image tag (all such runs in one request),
	// phase 1 its probe scalar tag, phase 2 is loaded.
	type runState struct {
		run    *expRun
		phase  int
		next   time.Time
		probed bool // the image probe passed: poll the scalar at c.poll
	}
	var states []*runState
	for i := range c.exp.runs {
		r := &c.exp.runs[i]
		st := &runState{run: r}
		if r.image == nil {
			st.phase = 1
		}
		states = append(states, st)
	}
	pending := len(states)
	var imagesNext, lastMiss time.Time
	for pending > 0 {
		now := time.Now()
		var batch []*runState
		for _, st := range states {
			if st.phase == 0 {
				batch = append(batch, st)
			}
		}
		if len(batch) > 0 && !imagesNext.After(now) {
			reqs := make([]imageRequest, len(batch))
			for i, st := range batch {
				reqs[i] = imageRequest{Plugin: "images", Tag: st.run.image.tag, Run: st.run.name}
			}
			probeStart := time.Now()
			lasts, lat, err := p.imageLastSteps(reqs)
			if err != nil {
				return fail(err)
			}
			res.Polls++
			res.PollTime += lat
			end := time.Now()
			for i, st := range batch {
				if lasts[i] < st.run.image.last {
					lastMiss = probeStart
					continue
				}
				if st.run.image.last >= st.run.probe().last {
					st.phase = 2 // the image is in the run's last event
					pending--
				} else {
					st.phase, st.probed, st.next = 1, true, end
				}
			}
			imagesNext = end.Add(c.poll)
		}
		for _, st := range states {
			if st.phase != 1 || st.next.After(now) {
				continue
			}
			probeStart := time.Now()
			_, last, lat, err := p.scalarSeries(st.run.name, st.run.probe().tag)
			if err != nil {
				return fail(err)
			}
			res.Polls++
			res.PollTime += lat
			end := time.Now()
			switch {
			case last >= st.run.probe().last:
				st.phase = 2
				pending--
			case st.probed:
				lastMiss = probeStart
				st.next = end.Add(c.poll)
			default:
				lastMiss = probeStart
				st.next = end.Add(max(c.poll, overheadFactor*time.Duration(pending)*lat))
			}
		}
		if pending == 0 {
			break
		}
		observe()
		next := now.Add(c.poll)
		for _, st := range states {
			switch {
			case st.phase == 0 && imagesNext.Before(next):
				next = imagesNext
			case st.phase == 1 && st.next.Before(next):
				next = st.next
			}
		}
		if err := p.wait(time.Until(next)); err != nil {
			return fail(err)
		}
	}
	res.Loaded.Wall = time.Since(start)
	if !lastMiss.IsZero() {
		res.Granularity = time.Since(lastMiss)
	} else {
		res.Granularity = res.Loaded.Wall - res.Up
	}
	lastTree = processTree(pid)
	res.Processes = len(lastTree)
	var rss int64
	res.Loaded.CPU, res.Loaded.RSSKB, rss = treeUsage(lastTree)
	res.SampledRSSKB = max(res.SampledRSSKB, rss)

	if !c.verify {
		return res, nil
	}
	// Verification: every scalar tag, in full, once.
	for _, r := range c.exp.runs {
		for _, t := range r.scalars {
			for {
				n, last, _, err := p.scalarSeries(r.name, t.tag)
				if err != nil {
					return fail(err)
				}
				if last >= t.last {
					res.ServedPoints += n
					if n != int64(t.count) {
						res.Mismatches = append(res.Mismatches, fmt.Sprintf("%s %s: %d points served, %d read by trainreport", r.name, t.tag, n, t.count))
					}
					break
				}
				res.LateTags++
				if err := p.wait(c.poll); err != nil {
					return fail(fmt.Errorf("run %s tag %s: last step %d served, %d expected: %w", r.name, t.tag, last, t.last, err))
				}
			}
		}
	}
	res.Served.Wall = time.Since(start)
	lastTree = processTree(pid)
	res.Served.CPU, res.Served.RSSKB, _ = treeUsage(lastTree)
	return res, nil
}

// poller makes the HTTP requests of one TensorBoard measurement.
type poller struct {
	ctx    context.Context
	base   string
	client *http.Client
	exited <-chan struct{}
}

var errExited = errors.New("tensorboard exited")

// wait sleeps for d, or fails when the process exits or time is up.
func (p *poller) wait(d time.Duration) error {
	t := time.NewTimer(max(d, time.Millisecond))
	defer t.Stop()
	select {
	case <-p.exited:
		return errExited
	case <-p.ctx.Done():
		return fmt.Errorf("gave up: %w", p.ctx.Err())
	case <-t.C:
		return nil
	}
}

// get fetches base+path; a connection refused before the server is up is
// not an error but status 0.
func (p *poller) get(path string) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(p.ctx, http.MethodGet, p.base+path, nil)
	if err != nil {
		return nil, 0, err
	}
	return p.do(req)
}

// post posts form to base+path.
func (p *poller) post(path string, form url.Values) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(p.ctx, http.MethodPost, p.base+path, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return p.do(req)
}

func (p *poller) do(req *http.Request) ([]byte, int, error) {
	select {
	case <-p.exited:
		return nil, 0, errExited
	default:
	}
	resp, err := p.client.Do(req)
	if err != nil {
		if p.ctx.Err() != nil {
			return nil, 0, fmt.Errorf("gave up: %w", p.ctx.Err())
		}
		var op *net.OpError
		if errors.As(err, &op) && op.Op == "dial" {
			return nil, 0, nil
		}
		return nil, 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return body, resp.StatusCode, err
}

// imageRequest is one request of the timeseries plugin's timeSeries route.
type imageRequest struct {
	Plugin string `json:"plugin"`
	Tag    string `json:"tag"`
	Run    string `json:"run"`
	Sample int    `json:"sample"`
}

// imageLastSteps asks the timeseries plugin, in one request, for the image
// series of several runs (each at most 10 items with the default sampling,
// the newest always among them) and returns the largest step served for
// each, -1 where none is.
func (p *poller) imageLastSteps(reqs []imageRequest) ([]int64, time.Duration, error) {
	body, _ := json.Marshal(reqs)
	start := time.Now()
	resp, status, err := p.post("/data/plugin/timeseries/timeSeries", url.Values{"requests": {string(body)}})
	lat := time.Since(start)
	lasts := make([]int64, len(reqs))
	for i := range lasts {
		lasts[i] = -1
	}
	if err != nil || status != http.StatusOK {
		return lasts, lat, err
	}
	var out []struct {
		RunToSeries map[string][]struct {
			Step int64 `json:"step"`
		} `json:"runToSeries"`
	}
	if err := json.Unmarshal(resp, &out); err != nil || len(out) != len(reqs) {
		return lasts, lat, fmt.Errorf("timeSeries endpoint: %v (%d answers to %d requests)", err, len(out), len(reqs))
	}
	for i, o := range out {
		for _, it := range o.RunToSeries[reqs[i].Run] {
			lasts[i] = max(lasts[i], it.Step)
		}
	}
	return lasts, lat, nil
}

// scalarSeries fetches one scalar series and returns its point count and
// its last step (-1 while it is not served).
func (p *poller) scalarSeries(run, tag string) (n, last int64, lat time.Duration, err error) {
	start := time.Now()
	body, status, err := p.get("/data/plugin/scalars/scalars?" + url.Values{"run": {run}, "tag": {tag}}.Encode())
	lat = time.Since(start)
	if err != nil || status != http.StatusOK {
		return 0, -1, lat, err
	}
	n, last, err = parseScalars(body)
	return n, last, lat, err
}

// parseScalars reads the count and last step of the scalars endpoint's
// [[wall_time, step, value], ...] without decoding every point: values
// never hold brackets (non-finite ones are the strings "NaN", "Infinity",
// "-Infinity").
func parseScalars(body []byte) (n, last int64, err error) {
	body = bytes.TrimSpace(body)
	if len(body) < 2 || body[0] != '[' {
		return 0, -1, fmt.Errorf("scalars endpoint: unexpected body %.80q", body)
	}
	n = int64(bytes.Count(body, []byte("["))) - 1
	if n == 0 {
		return 0, -1, nil
	}
	i := bytes.LastIndexByte(body, '[')
	j := bytes.IndexByte(body[i:], ']')
	if j < 0 {
		return 0, -1, fmt.Errorf("scalars endpoint: unterminated point")
	}
	var pt []json.RawMessage
	if err := json.Unmarshal(body[i:i+j+1], &pt); err != nil || len(pt) != 3 {
		return 0, -1, fmt.Errorf("scalars endpoint: bad point %q", body[i:i+j+1])
	}
	step, err := strconv.ParseFloat(string(pt[1]), 64)
	if err != nil {
		return 0, -1, fmt.Errorf("scalars endpoint: bad step %q", pt[1])
	}
	return n, int64(step), nil
}

// freePort returns a TCP port free on 127.0.0.1.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
