package render

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
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
	n := uint64(k)
	return appendDecimal(b, n/1_000_000, n%1_000_000, 6), true
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
	return appendDecimal(b, k/10_000_000, k%10_000_000, 7), true
}

// appendDecimal appends whole, then, when frac is not 0, "." and frac as
// d <= 8 digits (leading zeros included) with its trailing zeros trimmed:
// the decimal whole + frac*10^-d in its shortest form.
func appendDecimal(b []byte, whole, frac uint64, d int) []byte {
	b = appendUint(b, whole)
	if frac == 0 {
		return b
	}
	if cap(b)-len(b) < 16 {
		b = slices.Grow(b, 16)
	}
	n := len(b)
	out := b[n : n+16]
	out[0] = '.'
	// The d digits of frac from the word's first byte on; the last that
	// is not '0' ends them (frac is not 0: there is one).
	w := digits8(uint32(frac)) >> (8 * (8 - d))
	places := (bits.Len64(w-0x3030303030303030&(1<<(8*d)-1)) + 7) / 8
	binary.LittleEndian.PutUint64(out[1:], w)
	return b[:n+1+places]
}

// appendInt appends d in decimal, as strconv.AppendInt(b, d, 10) does:
// the data files' integers (steps, the wall-time column's deltas), most
// of one digit, at less than strconv's cost.
func appendInt(b []byte, d int64) []byte {
	if uint64(d) < 10 {
		return append(b, byte('0'+d))
	}
	if d < 0 {
		return appendUint(append(b, '-'), uint64(-d)) // -MinInt64 is MinInt64, as a uint64 its magnitude
	}
	return appendUint(b, uint64(d))
}

// appendUint appends u in decimal, as strconv.AppendUint(b, u, 10) does,
// eight digits at a time (digits8) below 10^16, straight into b's spare
// capacity.
func appendUint(b []byte, u uint64) []byte {
	if u < 10 {
		return append(b, byte('0'+u))
	}
	if u >= 1e16 {
		return strconv.AppendUint(b, u, 10)
	}
	if cap(b)-len(b) < 16 {
		b = slices.Grow(b, 16)
	}
	n := len(b)
	out := b[n : n+16]
	hi := u
	if u >= 1e8 {
		hi = u / 1e8
	}
	nd := digitCount(hi)
	binary.LittleEndian.PutUint64(out, digits8(uint32(hi))>>(8*(8-nd)))
	if u < 1e8 {
		return b[:n+nd]
	}
	binary.LittleEndian.PutUint64(out[nd:], digits8(uint32(u%1e8)))
	return b[:n+nd+8]
}

// digitCount returns how many decimal digits u in [1, 10^8) has.
func digitCount(u uint64) int {
	nd := (bits.Len32(uint32(u))*1233)>>12 + 1 // 1233/4096 is about log10(2)
	if u < pow10u32[nd-1] {
		nd--
	}
	return nd
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
