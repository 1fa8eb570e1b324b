package render

import (
	"encoding/json"
	"fmt"
	"math"
)

// pageRoom returns the bytes a page's own content may take within
// Options.MaxPageBytes: the budget less the frame every page has (the
// layout, navigation and controls, and the list of the report's runs),
// the largest int when there is no budget.
func (r *Report) pageRoom() (int, error) {
	budget := r.maxPageBytes()
	if budget == math.MaxInt {
		return budget, nil
	}
	runs, err := r.runNames()
	if err != nil {
		return 0, err
	}
	return max(budget-pageFrameBytes-len(runs), 0), nil
}

// runsPerTag returns the most runs every tag of a page may show, the
// first in its order, for what they inline to fit in room: sizes[t][k] is
// the bytes of the k-th run of tag t. It is the longest list when all
// fit, and may be 0 when not even one run of each tag does.
func runsPerTag(sizes [][]int, room int) int {
	most := 0
	for _, s := range sizes {
		most = max(most, len(s))
	}
	total := func(k int) int {
		n := 0
		for _, s := range sizes {
			for _, b := range s[:min(k, len(s))] {
				n += b
			}
		}
		return n
	}
	// The largest k with total(k) <= room: total grows with k.
	lo, hi := 0, most
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if total(mid) <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// cutNote says what a tag's section leaves out over the page's budget:
// it shows shown of total runs, the others' data being in the site's
// data/<dir>/ (the single file, which has no data files, says so too).
func (r *Report) cutNote(shown, total int, dir string) string {
	return fmt.Sprintf("This tag shows the first %s of %s runs: the other %s would pass the page's budget of %s (--max-page-bytes). "+
		"Their data is in the site's data/%s/<run>/<tag>.json (not in a single-file report).",
		fmtCount(shown), fmtCount(total), fmtCount(total-shown), fmtBytes(r.maxPageBytes()), dir)
}

// mediaRunsPerTag returns how many runs every tag of a media page (images,
// audio) keeps within room, the first in order: runs[t] are the inline
// data of tag t's runs; the longest list when all fit.
func mediaRunsPerTag[R any](runs [][]R, room int) int {
	sizes := make([][]int, len(runs))
	total := 0
	for t, rs := range runs {
		room -= mediaTagFrame
		sizes[t] = make([]int, len(rs))
		for k, run := range rs {
			// What scriptJSON writes of it, less than a byte in six more
			// (HTML-escaped <, >, &) for the data the logs name.
			b, err := json.Marshal(run)
			if err != nil {
				continue // the tag shows a note instead: no bytes
			}
			sizes[t][k] = len(b) + len(b)/6 + 1
			total += sizes[t][k]
		}
	}
	if total <= room {
		return math.MaxInt
	}
	return runsPerTag(sizes, max(room-400*len(runs), 0)) // with room for each tag's note
}

// mediaTagFrame is the bytes of a media tag's section around its data
// (templates/images.html's media-tags), with room.
const mediaTagFrame = 1 << 10

// mediaKeep is mediaRunsPerTag within r's page room, at least one run: a
// media tag without runs has no step to show.
func mediaKeep[R any](r *Report, runs [][]R) (int, error) {
	room, err := r.pageRoom()
	if err != nil {
		return 0, err
	}
	return max(mediaRunsPerTag(runs, room), 1), nil
}
