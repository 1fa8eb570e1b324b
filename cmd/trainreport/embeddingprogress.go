package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/trainreport/trainreport/render"
)

// progressPeriod is how often a log that is not a terminal (a CI job's)
// hears of the embeddings' layouts, which can take minutes.
const progressPeriod = 10 * time.Second

// embeddingProgress shows the embeddings' layouts going: on a terminal a
// bar, elsewhere a line every progressPeriod, saying what is done and
// what is being laid out.
type embeddingProgress struct {
	w     io.Writer
	quiet bool
	tty   bool

	mu    sync.Mutex
	start time.Time
	cur   render.EmbeddingProgress
	bar   *progressbar.ProgressBar
}

func newEmbeddingProgress(stderr io.Writer, quiet bool) *embeddingProgress {
	p := &embeddingProgress{w: stderr, quiet: quiet}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
	}
	return p
}

// update is render's callback: the latest state, drawn at once on a
// terminal, kept for the next line elsewhere.
func (p *embeddingProgress) update(s render.EmbeddingProgress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cur = s
	if p.bar != nil {
		p.bar.ChangeMax64(max(s.TotalWork/1e6, 1))
		p.bar.Set64(s.DoneWork / 1e6)
	}
}

// line says where the layouts are at now.
func (p *embeddingProgress) line(now time.Time) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.cur
	pct := 100.0
	if s.TotalWork > 0 {
		pct = 100 * float64(s.DoneWork) / float64(s.TotalWork)
	}
	l := fmt.Sprintf("laying out embeddings: %d of %d done, %.0f%% of the estimated work, %.0fs", s.Done, s.Total, pct, now.Sub(p.start).Seconds())
	if s.Current != "" {
		l += "; now " + printable(s.Current)
	}
	return l
}

// report prints a line at each tick until stop is closed.
func (p *embeddingProgress) report(tick <-chan time.Time, stop <-chan struct{}) {
	for {
		select {
		case now := <-tick:
			fmt.Fprintln(p.w, p.line(now))
		case <-stop:
			return
		}
	}
}

// layOutEmbeddings runs r's layouts, showing their progress, then says
// how long they took and warns of what the budgets left out.
func layOutEmbeddings(ctx context.Context, r *render.Report, p *embeddingProgress, stderr io.Writer) error {
	p.start = time.Now()
	stop, stopped := make(chan struct{}), make(chan struct{})
	switch {
	case p.quiet:
		close(stopped)
	case p.tty:
		p.bar = progressbar.NewOptions64(-1, progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription("laying out embeddings"),
			progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
		close(stopped)
	default:
		ticker := time.NewTicker(progressPeriod)
		go func() {
			defer close(stopped)
			defer ticker.Stop()
			p.report(ticker.C, stop)
		}()
	}
	err := r.ComputeEmbeddings(ctx)
	close(stop)
	<-stopped
	if p.bar != nil {
		p.bar.Finish()
	}
	if err != nil {
		return fmt.Errorf("laying out the embeddings: %w", err)
	}
	for _, w := range r.EmbeddingWarnings() {
		fmt.Fprintf(stderr, "warning: %s\n", printable(w))
	}
	if n := p.cur.Total; !p.quiet && n > 0 {
		fmt.Fprintf(stderr, "laid out %s in %.2fs\n", plural(n, "embedding"), time.Since(p.start).Seconds())
	}
	return nil
}
