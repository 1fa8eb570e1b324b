package render

import (
	"math"
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
// below 2^54 in this range, d being the places of nine significant
// digits in v's binade (places32): a float32 needs at most nine, so the
// shortest decimal is one of d places, and few are trimmed off. The decimals of d places
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
	d := int(places32[exp-117])
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
	// x and rem follow v in units of 10^(q-d): x its integer part, rem
	// the part of its remainder in whole units of 10^-d (the rest is
	// X's remainder over 2^t, xr): divisions by the constant 10, none by
	// a power of ten.
	x, xr := X>>t, X&mask
	var rem uint64
	q, pw := 0, uint64(1)
	for {
		nlo, nhi := (lo+9)/10, hi/10
		if nlo > nhi {
			break
		}
		lo, hi = nlo, nhi
		rem += x % 10 * pw
		x /= 10
		q, pw = q+1, pw*10
	}
	// Of the multiples of 10^q in [lo, hi], the closest to v: v is x and
	// (rem*2^t + xr) / (10^q*2^t) units of 10^q.
	c := x
	if c < lo {
		c = lo
	} else if c+1 <= hi {
		twice, unit := 2*(rem<<t+xr), pw<<t
		if twice > unit || twice == unit && c&1 == 1 {
			c++ // the closer; of two as close, the even one, as strconv
		}
	}
	if c > hi {
		return b, false
	}
	if v < 0 {
		b = append(b, '-')
	}
	places := d - q
	for places > 0 && c%10 == 0 {
		c, places = c/10, places-1
	}
	// The digits of c, two at a time from the last, then the point
	// placed among them: places after it, at least "0" before it.
	var buf [24]byte
	i := len(buf)
	for c >= 100 {
		k := c % 100 * 2
		c /= 100
		i -= 2
		buf[i], buf[i+1] = digitPairs[k], digitPairs[k+1]
	}
	if c >= 10 {
		i -= 2
		buf[i], buf[i+1] = digitPairs[2*c], digitPairs[2*c+1]
	} else {
		i--
		buf[i] = byte('0' + c)
	}
	digits := buf[i:]
	switch {
	case places < 0:
		b = append(b, digits...)
		return append(b, "0000000000000000000000"[:-places]...), true
	case places == 0:
		return append(b, digits...), true
	case places < len(digits):
		whole := len(digits) - places
		b = append(b, digits[:whole]...)
		b = append(b, '.')
		return append(b, digits[whole:]...), true
	}
	b = append(b, "0."...)
	b = append(b, "000000000000"[:places-len(digits)]...)
	return append(b, digits...), true
}

// digitPairs holds "00" to "99".
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

// places32 holds, for each binade of appendFloat32's range (exponent
// bits 117 to 150, [2^-10, 2^24)), the places of nine significant digits
// at its least value: 8 - floor(log10(2^j)), from 12 at 2^-10 to 2 at 2^23.
var places32 = func() (p [34]int8) {
	for i := range p {
		p[i] = int8(8 - math.Floor(float64(i-10)*math.Log10(2)))
	}
	return p
}()

// pow5 holds the powers of five of appendFloat32's scales.
var pow5 = [13]uint64{1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625, 48828125, 244140625}
