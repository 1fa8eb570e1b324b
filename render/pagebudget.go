package render

import (
	"encoding/json"
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
	runs, _, err := r.runNames()
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
	// prefix[t][k] is the bytes of the first k runs of tag t.
	prefix := make([][]int, len(sizes))
	for t, s := range sizes {
		most = max(most, len(s))
		prefix[t] = make([]int, len(s)+1)
		for k, b := range s {
			prefix[t][k+1] = prefix[t][k] + b
		}
	}
	total := func(k int) int {
		n := 0
		for _, p := range prefix {
			n += p[min(k, len(p)-1)]
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

// keepCards returns how many cards (runs) every tag of a page keeps, the
// first in order, for the page's cards to fit in room: cards[t] are tag
// t's, size is a card's bytes on the page and tagFrame the bytes of a
// tag's section besides its cards. It is the largest int when all fit.
func keepCards[C any](cards [][]C, size func(C) int, room, tagFrame int) int {
	sizes := make([][]int, len(cards))
	total := 0
	for t, cs := range cards {
		room -= tagFrame
		sizes[t] = make([]int, len(cs))
		for k, c := range cs {
			sizes[t][k] = size(c)
			total += sizes[t][k]
		}
	}
	if total <= room {
		return math.MaxInt
	}
	return runsPerTag(sizes, max(room-cutNoteBytes*len(cards), 0))
}

// cutNoteBytes is the bytes of a tag's note saying what it leaves out.
const cutNoteBytes = 400

// mediaRunsPerTag returns how many runs every tag of a media page (images,
// audio) keeps within room, the first in order: runs[t] are the inline
// data of tag t's runs; the largest int when all fit.
func mediaRunsPerTag[R any](runs [][]R, room int) int {
	return keepCards(runs, func(run R) int {
		// What scriptJSON writes of it, with a sixth more for the
		// HTML-escaped <, > and & of the names the logs give.
		b, err := json.Marshal(run)
		if err != nil {
			return 0 // the tag shows a note instead
		}
		return len(b) + len(b)/6 + 1
	}, room, mediaTagFrame)
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

// cutMediaTags makes the sections of a media page (images, audio) within
// its budget: each tag keeps the first mediaKeep runs of runs[t] (their
// steps in steps[t]), with a note naming what kind of data files hold the
// others, which in the site (single unset) load on demand. tagJSON makes
// a tag's page data from the runs kept and the union of their steps; a
// run left out loads as its runs[t] entry, named by name.
func cutMediaTags[T any, R any](r *Report, mts []*mediaTag[T], runs [][]R, steps [][][]int64, kind string, single bool,
	name func(R) string, tagJSON func(tag string, runs []R, steps []int64) any) ([]mediaTagView, error) {
	keep, err := mediaKeep(r, runs)
	if err != nil {
		return nil, err
	}
	views := make([]mediaTagView, len(mts))
	for t, mt := range mts {
		n := min(keep, len(runs[t]))
		union := unionSteps(steps[t][:n])
		views[t] = mediaTagViewOf(mt.tag, tagStepsLabel(mt.series[:n]), sliderStops(steps[t][:n])-1, tagJSON(mt.tag, runs[t][:n], union))
	}
	cutCards(r, len(mts), keep, kind, single, func(t int) string { return mts[t].tag },
		func(t int) *[]R { return &runs[t] }, func(t int) *cutSection { return &views[t].cutSection }, name)
	return views, nil
}
