package render

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// appendValue appends v as a JSON value: a number in the shortest form
// that reads back to the same float32 (when f32) or float64, or one of the
// strings "NaN", "Infinity" and "-Infinity", since JSON has no numbers for
// them.
func appendValue(b []byte, v float64, f32 bool) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, `"NaN"`...)
	case math.IsInf(v, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(v, -1):
		return append(b, `"-Infinity"`...)
	}
	bits := 64
	if f32 {
		bits = 32
	}
	// Like encoding/json: exponents only for very small or large values.
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
		return strconv.AppendFloat(b, v, 'g', -1, bits)
	}
	return strconv.AppendFloat(b, v, 'f', -1, bits)
}

// appendWallTime appends a wall time in seconds, exactly as stored.
func appendWallTime(b []byte, w float64) []byte {
	return appendValue(b, w, false)
}

// fmtValue formats a value for people: six significant digits.
func fmtValue(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "−Inf"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// fmtTime formats a wall time as UTC.
func fmtTime(w float64) string {
	if w <= 0 {
		return ""
	}
	sec, frac := math.Modf(w)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC().Format("2006-01-02 15:04:05Z")
}

// fmtDuration formats seconds as hours, minutes and seconds.
func fmtDuration(s float64) string {
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

// fmtCount formats an integer with thousands separators.
func fmtCount(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + fmtCount(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
