package render

import (
	"math"
	"strconv"
)

// appendFloat32 appends v, a float32 in [2^-10, 2^24) or its negative,
// as strconv.AppendFloat(b, v, 'f', -1, 32) does, and reports whether it
// did; other values are left to strconv. Values are most of
// the bytes of the data files, and strconv's general path spends more
// on its set-up and formatting than on its search for the digits.
//
// The shortest decimal that reads back as v (round half to even: the
// bounds belong to v when its mantissa is even) is found exactly, in
// integers: with v = m*2^-s, the half-way points to v's neighbours are
// (4m-2)/2^(s+2) and (4m+2)/2^(s+2) ((4m-1) below a power of two), and in
// units of 10^-d they are those numerators times 5^d over 2^(s+2-d), all
// below 2^54 in this range with d = 12 decimals below 1 and 8 above (a
// float32 needs at most nine significant digits). The decimals of d places
// inside are the integers between the bounds; the shortest are the
// multiples of the largest power of ten that has one there (the fewest
// significant digits), and of those strconv writes the one closest to v,
// of two as close the even one.
// TestAppendFloat32 compares it with strconv on every float32 of a sample
// of binades and FuzzAppendFloat32 on any.
func appendFloat32(b []byte, v float64) ([]byte, bool) {
	f := float32(v)
	if float64(f) != v {
		return b, false
	}
	bits := math.Float32bits(f)
	exp := int(bits>>23) & 0xff
	// exp-127 is the binade: [2^-10, 2^24) is exp in [117, 150].
	if exp < 117 || exp > 150 {
		return b, false
	}
	m := uint64(bits&(1<<23-1) | 1<<23)
	s := 150 - exp // v = m * 2^-s, s in [0, 33]
	d := 8
	if s > 23 { // v < 1
		d = 12
	}
	lo4 := 4*m - 2
	if m == 1<<23 && exp > 1 {
		lo4 = 4*m - 1
	}
	p5 := pow5[d]
	L, X, H := lo4*p5, 4*m*p5, (4*m+2)*p5
	t := s + 2 - d // the bounds are L, X, H over 2^t
	if t < 0 {
		L, X, H, t = L<<-t, X<<-t, H<<-t, 0
	}
	even := m&1 == 0
	// lo, hi: the integers in the interval, as decimals of d places.
	mask := uint64(1)<<t - 1
	lo := L >> t
	if L&mask != 0 || !even {
		lo++
	}
	hi := H >> t
	if H&mask == 0 && !even {
		hi--
	}
	if lo > hi {
		return b, false // cannot be: v itself has a decimal of d places or more; left to strconv
	}
	// Trim: the largest power of ten 10^q with a multiple in [lo, hi].
	q := 0
	for {
		nlo, nhi := (lo+9)/10, hi/10
		if nlo > nhi {
			break
		}
		lo, hi, q = nlo, nhi, q+1
	}
	// Of the multiples of 10^q in [lo, hi], the closest to v: unit is
	// 10^q * 2^t in the numerators' scale.
	unit := pow10u[q] << t
	c := X / unit
	r := X - c*unit // v is c + r/unit units
	if c < lo {
		c = lo
	} else if c+1 <= hi {
		switch {
		case 2*r > unit:
			c++
		case 2*r == unit && c&1 == 1:
			c++ // a tie: strconv writes the even one
		}
	}
	if c > hi {
		return b, false
	}
	if v < 0 {
		b = append(b, '-')
	}
	places := d - q
	if places <= 0 {
		return strconv.AppendUint(b, c*pow10u[-places], 10), true
	}
	div := pow10u[places]
	b = strconv.AppendUint(b, c/div, 10)
	frac := c % div
	for frac%10 == 0 && places > 0 {
		frac, places = frac/10, places-1
	}
	if places == 0 {
		return b, true
	}
	var digits [12]byte
	for i := places - 1; i >= 0; i-- {
		digits[i] = byte('0' + frac%10)
		frac /= 10
	}
	return append(append(b, '.'), digits[:places]...), true
}

// pow5 and pow10u are the powers of five and ten of appendFloat32.
var pow5 = [13]uint64{1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625, 48828125, 244140625}

// pow10u goes to 10^19: an integer in [2^23, 2^24) is a multiple of up
// to 10^7 with its 8 decimals, 10^15 in units of 10^-8.
var pow10u = [20]uint64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}
