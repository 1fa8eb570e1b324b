//go:build !purego

package anomaly

import (
	"golang.org/x/sys/cpu"

	"github.com/trainreport/trainreport/collect/model"
)

// hasWalkAVX512 is whether the CPU (and the OS, which must save the
// registers) has the AVX-512 the vector walk takes: F for the
// permutations, compares and mask registers, DQ for the class test of
// non-finite values. Read once: a process' CPU does not change.
var hasWalkAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

// walkBucket is walkBucketGo, 8 points a turn where the CPU has AVX-512.
func walkBucket(pts []model.Point, out []float64, maxStep int64) bucketWalk {
	if hasWalkAVX512 && len(pts) >= 8 {
		return walkBucketAVX512(pts, out, nil, maxStep)
	}
	return walkBucketGo(pts, out, maxStep)
}

// walkBucketWalls is walkBucketWallsGo, 8 points a turn where the CPU has
// AVX-512.
func walkBucketWalls(pts []model.Point, out, walls []float64, maxStep int64) bucketWalk {
	if hasWalkAVX512 && len(pts) >= 8 {
		return walkBucketAVX512(pts, out, walls[:len(pts)], maxStep)
	}
	return walkBucketWallsGo(pts, out, walls, maxStep)
}

// vectorWalk returns the vector walk (walkBucketAVX512), or nil and why
// there is none, for the tests that compare it with the Go loops.
func vectorWalk() (func(pts []model.Point, out, walls []float64, maxStep int64) bucketWalk, string) {
	if !hasWalkAVX512 {
		return nil, "the CPU (or the OS) lacks AVX-512 F and DQ"
	}
	return walkBucketAVX512, ""
}

// walkBucketAVX512 is walkBucketGo, and with walls not nil (as long as
// pts) walkBucketWallsGo, with the same results and the same slices
// written: walk8AVX512 takes the points 8 at a time, the Go loops the
// rest (up to 7), then, as the Go loops, walkBucketSlow redoes a bucket
// that holds a non-finite value, and the extremes' first offsets are
// found as bucketEnds finds them (extremesAVX512). The kernel's extremes
// are the smallest and largest values, but a zero's sign may be either
// where -0 and 0 tie: the value at the first offset is the one the Go
// loops keep.
func walkBucketAVX512(pts []model.Point, out, walls []float64, maxStep int64) bucketWalk {
	out = out[:len(pts)]
	before := maxStep
	m := len(pts) &^ 7
	vmin, vmax, maxStep, unsorted, nonFinite := walk8AVX512(pts[:m], out[:m], walls[:min(m, len(walls))], maxStep)
	// The last 0-7 points by the Go loops, from the kernel's largest
	// step; a non-finite value among them is one they stop before.
	var t bucketWalk
	if walls != nil {
		t = walkBucketWallsGo(pts[m:], out[m:], walls[m:], maxStep)
	} else {
		t = walkBucketGo(pts[m:], out[m:], maxStep)
	}
	if nonFinite || t.n < len(pts)-m {
		return walkBucketSlow(pts, out, before)
	}
	maxStep, unsorted = t.maxStep, unsorted || t.unsorted
	vmin, vmax = min(vmin, t.vmin), max(vmax, t.vmax) // either zero where they tie: the first offset's value is taken below
	if len(out) < 8 {
		return bucketEnds(out, maxStep, unsorted, vmin, vmax)
	}
	// bucketEnds' search, 8 values a turn: a bucket's extremes lie
	// anywhere in it, and the scalar search took a third as long as the
	// vector walk in a p8m report's profile.
	imin, imax := extremesAVX512(out, vmin, vmax)
	return bucketWalk{n: len(out), maxStep: maxStep, unsorted: unsorted, min: imin, max: imax, vmin: out[imin], vmax: out[imax]}
}

// walk8AVX512 walks len(pts)/8 groups of 8 points (len(pts) a multiple
// of 8), storing their values in out and, when walls is not empty, their
// wall times in walls (each at least as long as pts). It returns their
// smallest and largest value (+Inf and -Inf for none; either sign of a
// zero that ties), the largest of maxStep and their steps, whether a step
// is below maxStep or one before it, and whether a value is NaN or
// infinite (then the extremes mean nothing).
//
//go:noescape
func walk8AVX512(pts []model.Point, out, walls []float64, maxStep int64) (vmin, vmax float64, stepMax int64, unsorted, nonFinite bool)

// extremesAVX512 is bucketEnds' search for the first offsets in out
// (len(out) >= 8) of values equal to vmin and to vmax, which must be
// there.
//
//go:noescape
func extremesAVX512(out []float64, vmin, vmax float64) (imin, imax int)
