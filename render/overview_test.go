package render

import (
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// The overview's first line counts in words: "1 run · 1 event file" for
// one, "2 runs · 2 event files" for more (the trial found "1 runs · 1
// event files · 1 warnings" on tf2-projector-ckpt).
func TestOverviewHeadlineCountsInWords(t *testing.T) {
	loss := func(step int64, v float32) *eventpb.Event {
		return summaryEvent(step, &eventpb.SummaryValue{Tag: "loss", Value: &eventpb.SummaryValue_SimpleValue{SimpleValue: v}})
	}
	one := t.TempDir()
	writeEvents(t, one, "a", loss(0, 1))
	two := t.TempDir()
	writeEvents(t, two, "a", loss(0, 1), loss(1, 2))
	writeEvents(t, two, "b", loss(0, 1))
	for _, c := range []struct {
		dir, want string
	}{
		{one, `<p class="lead">1 run · 1 event file · 1 scalar tag · 1 point</p>`},
		{two, `<p class="lead">2 runs · 2 event files · 1 scalar tag · 3 points</p>`},
	} {
		rep := collectDir(t, "logs", c.dir)
		index := string(filesByName(t, newReport(rep, Options{}))["index.html"])
		rep.Close()
		if !strings.Contains(index, c.want) {
			i := strings.Index(index, `<p class="lead">`)
			t.Errorf("overview headline %.120q, want %q", index[max(i, 0):], c.want)
		}
	}
}
