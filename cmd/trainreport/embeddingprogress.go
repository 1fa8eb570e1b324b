package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// progressPeriod is how often a log that is not a terminal (a CI job's)
// hears of the embeddings' layouts, which can take minutes.
const progressPeriod = 10 * time.Second

// embeddingProgress shows the embeddings' layouts going while
// analysis.Build runs: on a terminal a bar, elsewhere a line every
// progressPeriod, saying what is done and what is being laid out. The
// layouts are one phase of the analysis: what is shown runs from
// analysis' first call of update to its last.
type embeddingProgress struct {
	w     io.Writer
	quiet bool
	tty   bool

	mu sync.Mutex
	// start and end are when the layouts began and ended: the first and
	// the last call of update; zero before.
	start, end time.Time
	cur        analysis.EmbeddingProgress
	bar        *progressbar.ProgressBar
}

func newEmbeddingProgress(stderr io.Writer, quiet bool) *embeddingProgress {
	p := &embeddingProgress{w: stderr, quiet: quiet}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
	}
	return p
}

// update is analysis' callback (Options.EmbeddingProgress): the latest
// state, drawn at once on a terminal, kept for the next line elsewhere.
func (p *embeddingProgress) update(s analysis.EmbeddingProgress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if p.start.IsZero() {
		p.start = now
		if p.tty && !p.quiet {
			p.bar = progressbar.NewOptions64(-1, progressbar.OptionSetWriter(p.w), progressbar.OptionSetDescription("laying out embeddings"),
				progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
		}
	}
	p.cur = s
	if p.bar != nil {
		p.bar.ChangeMax64(max(s.TotalWork/1e6, 1))
		p.bar.Set64(s.DoneWork / 1e6)
	}
	if s.Done == s.Total && s.Current == "" { // the last call
		p.end = now
		p.finishBar()
	}
}

// finishBar clears the bar, if any; p.mu is held.
func (p *embeddingProgress) finishBar() {
	if p.bar != nil {
		p.bar.Finish()
		p.bar = nil
	}
}

// line says where the layouts are at now, and whether they are going:
// begun and not ended.
func (p *embeddingProgress) line(now time.Time) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.start.IsZero() || !p.end.IsZero() {
		return "", false
	}
	s := p.cur
	pct := 100.0
	if s.TotalWork > 0 {
		pct = 100 * float64(s.DoneWork) / float64(s.TotalWork)
	}
	l := fmt.Sprintf("laying out embeddings: %d of %d done, %.0f%% of the estimated work, %.0fs", s.Done, s.Total, pct, now.Sub(p.start).Seconds())
	if s.Current != "" {
		l += "; now " + printable(s.Current)
	}
	return l, true
}

// report prints a line at each tick while the layouts go, until stop is
// closed.
func (p *embeddingProgress) report(tick <-chan time.Time, stop <-chan struct{}) {
	for {
		select {
		case now := <-tick:
			if l, ok := p.line(now); ok {
				fmt.Fprintln(p.w, l)
			}
		case <-stop:
			return
		}
	}
}

// watch starts showing the layouts' progress, off a terminal with a line
// at every tick, for as long as the analysis runs; the function returned
// stops it, clearing the bar of layouts that did not end (the analysis
// was cancelled).
func (p *embeddingProgress) watch() (stop func()) {
	if p.quiet || p.tty {
		return func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.finishBar()
		}
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	ticker := time.NewTicker(progressPeriod)
	go func() {
		defer close(stopped)
		defer ticker.Stop()
		p.report(ticker.C, done)
	}()
	return func() {
		close(done)
		<-stopped
	}
}

// done warns of what the budgets left out of the embeddings laid out, and
// says how long their layouts took.
func (p *embeddingProgress) done(emb result.Embeddings) {
	for _, w := range emb.Warnings {
		fmt.Fprintf(p.w, "warning: %s\n", printable(w))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := p.cur.Total; !p.quiet && n > 0 {
		fmt.Fprintf(p.w, "laid out %s in %.2fs\n", plural(n, "embedding"), p.end.Sub(p.start).Seconds())
	}
}
