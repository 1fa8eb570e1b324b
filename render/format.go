package render

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"time"

	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/summary"
)

// appendValue appends v as a JSON value: a number in the shortest form
// that reads back to the same float32 (when f32) or float64, or one of the
// strings "NaN", "Infinity" and "-Infinity", since JSON has no numbers for
// them. summary.json's numbers (summary.Float, summary.Scalar) are written
// the same way, by the same function.
//
// A float32 of [2^-10, 2^24), most values of most logs, is formatted by
// appendFloat32, which writes strconv's bytes at about half its cost.
func appendValue(b []byte, v float64, f32 bool) []byte {
	if f32 {
		if b, ok := appendFloat32(b, v); ok {
			return b
		}
	}
	return summary.AppendValue(b, v, f32)
}

// appendWallTime appends a wall time in seconds, exactly as stored, in the
// shortest form that reads back to it.
func appendWallTime(b []byte, w float64) []byte {
	if b, ok := appendFewDecimals(b, w); ok {
		return b
	}
	if b, ok := appendSevenDecimals(b, w); ok {
		return b
	}
	return appendValue(b, w, false)
}

// appendFewDecimals appends v in [1, 2^32) when at most six decimals read
// back to it exactly, as wall times from most writers do, and reports
// whether it did; its output is strconv's shortest form. Wall times are a
// third of the bytes of the data files, and this is about twice as fast
// as the general shortest-form search.
//
// Why it is exact: k = round(v*1e6) is an integer below 2^53, so k and 1e6
// are exact in a float64 and k/1e6 is the correctly rounded value of the
// decimal k*10^-6, which is what reading that decimal back gives. Why it
// is the shortest: any decimal of d <= 6 places that reads back as v lies
// within half an ulp of v, under 2^-22 for v < 2^32, so times 10^6 it lies
// within 0.24 of v*1e6, itself computed within 0.25: k is that decimal
// scaled, and trimming k's trailing zeros finds it.
func appendFewDecimals(b []byte, v float64) ([]byte, bool) {
	if !(v >= 1 && v < 1<<32) {
		return b, false
	}
	k := math.Round(v * 1e6)
	if k/1e6 != v {
		return b, false
	}
	n := int64(k)
	frac, d := n%1_000_000, 6
	b = strconv.AppendInt(b, n/1_000_000, 10)
	if frac == 0 {
		return b, true
	}
	for frac%10 == 0 {
		frac, d = frac/10, d-1
	}
	return appendFraction(b, frac, d), true
}

// appendSevenDecimals appends v in [2^30, 2^32), seconds from 2004 to
// 2106, for which appendFewDecimals found no form, and reports whether it
// did; its output is strconv's shortest form. Such wall times (Python's
// time.time()) need seven decimals: the ulp there is at least 1.1e-7, so
// the decimal of seven places nearest to v, within 0.5e-7, reads back as
// v, and none of six or fewer does. The nearest is computed exactly in
// integers; an exact tie between two is left to strconv.
func appendSevenDecimals(b []byte, v float64) ([]byte, bool) {
	if !(v >= 1<<30 && v < 1<<32) {
		return b, false
	}
	frac, exp := math.Frexp(v)          // v = frac * 2^exp, exp 31 or 32
	m := uint64(frac * (1 << 53))       // exact: 53 significant bits
	shift := uint(53 - exp)             // v = m / 2^shift
	hi, lo := bits.Mul64(m, 10_000_000) // m * 10^7 < 2^77
	k := hi<<(64-shift) | lo>>shift     // floor(v * 10^7), below 2^56
	rem, half := lo&(1<<shift-1), uint64(1)<<(shift-1)
	switch {
	case rem == half:
		return b, false
	case rem > half:
		k++
	}
	digits, d := k%10_000_000, 7
	if digits == 0 {
		return strconv.AppendUint(b, k/10_000_000, 10), true
	}
	for digits%10 == 0 {
		digits, d = digits/10, d-1
	}
	b = strconv.AppendUint(b, k/10_000_000, 10)
	return appendFraction(b, int64(digits), d), true
}

// appendFraction appends "." and frac as d digits, with leading zeros.
func appendFraction(b []byte, frac int64, d int) []byte {
	var digits [7]byte
	for i := d - 1; i >= 0; i-- {
		digits[i] = byte('0' + frac%10)
		frac /= 10
	}
	return append(append(b, '.'), digits[:d]...)
}

// fmtValue formats a value for people: six significant digits
// (result.FormatValue, which the analysis's words use too).
func fmtValue(v float64) string { return result.FormatValue(v) }

// lastWallTime is the last second a UTC date of four digits can show
// (9999-12-31 23:59:59).
const lastWallTime = 253402300799

// fmtTime formats a wall time as UTC; one beyond the year 9999 (a
// writer's garbage) as its number of seconds, since converting it to an
// integer would overflow.
func fmtTime(w float64) string {
	if !(w > 0) {
		return ""
	}
	if w > lastWallTime {
		return fmtValue(w) + " s"
	}
	sec, frac := math.Modf(w)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC().Format("2006-01-02 15:04:05Z")
}

// fmtDuration formats seconds as hours, minutes and seconds. A duration
// time.Duration cannot hold (about 292 years; the difference of two
// garbage wall times, up to +Inf) is written as its number of seconds.
func fmtDuration(s float64) string {
	if !(math.Abs(s) < float64(math.MaxInt64/time.Second)) {
		return fmtValue(s) + " s"
	}
	d := time.Duration(s * float64(time.Second)).Round(time.Second)
	h, m, sec := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	switch {
	case h > 0:
		return fmt.Sprintf("%dh %02dm %02ds", h, m, sec)
	case m > 0:
		return fmt.Sprintf("%dm %02ds", m, sec)
	}
	return fmt.Sprintf("%ds", sec)
}

// stepsLabel says how many steps a card holds: "3 steps", "50 of 1,000
// steps".
func stepsLabel(shown, total int) string {
	unit := "steps"
	if total == 1 {
		unit = "step"
	}
	if shown == total {
		return fmt.Sprintf("%s %s", result.FormatCount(total), unit)
	}
	return fmt.Sprintf("%s of %s %s", result.FormatCount(shown), result.FormatCount(total), unit)
}
