package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/internal/analysis/result"
)

// Bounds of the comment form's gates and baseline sections.
const (
	// commentGateRuns bounds the runs each failed gate names in a
	// comment; commentDeltaRows the rows of the baseline table.
	commentGateRuns  = 3
	commentDeltaRows = 30
	// sectionShare is the share of the form's budget the gates, and then
	// the baseline table, may take at most: they come first, and the
	// headline and the runs must still fit after them.
	sectionShare = 0.3
)

// mdGates writes the verdicts of --fail-on, failed first: what a CI user
// reads first.
func (r *Report) mdGates(md *mdWriter, runsLimit int) {
	gates := r.an.Gates
	if len(gates) == 0 {
		return
	}
	failed := 0
	for _, g := range gates {
		if g.Failed {
			failed++
		}
	}
	head := fmt.Sprintf("## Gates: %d of %d failed\n\n", failed, len(gates))
	if failed == 0 {
		head = fmt.Sprintf("## Gates: all %d passed\n\n", len(gates))
	}
	var rows []string
	for _, g := range gates {
		if !g.Failed {
			rows = append(rows, fmt.Sprintf("- ✅ passed: %s\n", md.code(g.Expr)))
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "- ❌ **failed**: %s", md.code(g.Expr))
		switch {
		case g.Err != "":
			fmt.Fprintf(&b, ": cannot be evaluated: %s", md.name(g.Err))
		default:
			var where []string
			for i, h := range g.Held {
				if runsLimit > 0 && i == runsLimit {
					break
				}
				s := "the report"
				if h.Run != "" {
					s = "run " + md.bold(h.Run)
				}
				if len(h.Values) > 0 {
					s += " (" + md.code(strings.Join(h.Values, ", ")) + ")"
				}
				where = append(where, s)
			}
			fmt.Fprintf(&b, " holds for %s", strings.Join(where, "; "))
			if more := g.Runs - len(where); more > 0 {
				fmt.Fprintf(&b, " and %s more %s", result.FormatCount(more), nounOf(more, "run", "runs"))
			}
		}
		b.WriteString("\n")
		rows = append(rows, b.String())
	}
	md.table(head, rows, 0, "gate verdicts")
}

func nounOf(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// mdBaseline writes the comparison with --baseline, regressions first,
// at most limit rows (0: all).
func (r *Report) mdBaseline(md *mdWriter, limit int) {
	b := r.an.Baseline
	if b == nil {
		return
	}
	ds, th := b.Deltas, b.Threshold
	regressed := 0
	for _, d := range ds {
		if d.Regressed {
			regressed++
		}
	}
	head := fmt.Sprintf("## Against the baseline\n\nCompared with %s: %s, %s (last or best value worse by more than %s in the direction the tag's name says is better, a last value no longer finite, or fewer steps reached).\n\n",
		md.code(b.Source), result.CountOf(len(ds), "series", "series"), result.CountOf(regressed, "regression", "regressions"), strconv.FormatFloat(100*th, 'f', -1, 64)+"%")
	if len(ds) == 0 {
		md.write(fmt.Sprintf("## Against the baseline\n\nCompared with %s: no run and tag of this report is in the baseline.\n\n", md.code(b.Source)))
		return
	}
	head += "| | Tag | Run | Last (baseline, change) | Best (baseline, change) | Step (baseline) | Why |\n|---|---|---|--:|--:|--:|---|\n"
	var rows []string
	unchanged := 0
	for _, d := range ds {
		if !d.Regressed && d.Last == d.BaseLast && d.Step == d.BaseStep && (!d.HasBest || d.Best == d.BaseBest) {
			unchanged++ // counted, not listed: a comparison is read for what changed
			continue
		}
		flag := ""
		if d.Regressed {
			flag = "⚠️"
		}
		best := ""
		if d.HasBest {
			best = fmtChange(d.Best, d.BaseBest)
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s | %s | %d (%d) | %s |\n", flag, md.name(d.Tag), md.name(d.Run),
			fmtChange(d.Last, d.BaseLast), best, d.Step, d.BaseStep, md.name(strings.Join(d.Why, "; "))))
	}
	if unchanged > 0 {
		rows = append(rows, fmt.Sprintf("| | %s unchanged | | | | | |\n", result.CountOf(unchanged, "series", "series")))
	}
	md.table(head, rows, limit, "rows of the baseline table")
}
