package render

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/trainreport/trainreport/internal/analysis/result"
)

// The author's notes (--notes FILE.md) are Markdown the report's author
// puts at the top of the overview and of summary.md: what a run was for,
// what changed, what to look at. They are the author's, not the logs',
// but the same file may come from a pull request, so the overview renders
// them as it renders the logs' text (sanitised, no image loaded, within a
// budget), and summary.md gives them at most a share of its own.

// MaxNotesBytes bounds the notes a report takes: more is refused, with the
// file named, by the command line.
const MaxNotesBytes = 256 << 10

// notesCells bounds the table cells of the notes on the overview, as a
// text step's are.
const notesCells = mdStepCells

// notesHTML is the notes rendered for the overview, "" without notes.
func (r *Report) notesHTML() template.HTML {
	if strings.TrimSpace(r.opt.Notes) == "" {
		return ""
	}
	return newMarkdown().render(r.opt.Notes, newBudget(notesCells, 2*MaxNotesBytes))
}

// mdNotes writes the notes into summary.md, within limit units of md's
// measure: cut past it at the last blank line that fits (a paragraph's
// end, so that no Markdown construct is left open), saying how much is
// left to the overview.
func (r *Report) mdNotes(md *mdWriter, limit int) {
	notes := strings.TrimSpace(r.opt.Notes)
	if notes == "" {
		return
	}
	if n := md.measure(notes); n > limit {
		cut := notes
		for md.measure(cut) > limit {
			i := strings.LastIndex(cut, "\n\n")
			if i < 0 {
				cut = ""
				break
			}
			cut = strings.TrimSpace(cut[:i])
		}
		notes = fmt.Sprintf("%s\n\n*The notes go on in the overview (%s characters here of %s).*", cut,
			result.FormatCount(md.measure(cut)), result.FormatCount(n))
	}
	md.write(notes + "\n\n")
}
