package render

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// appendFloat32 appends v, a float32 in [2^-10, 2^24) or its negative,
// as strconv.AppendFloat(b, v, 'f', -1, 32) does, and reports whether it
// did; other values are left to strconv. Values are most of the bytes of
// the data files, and strconv's general path spends more on its set-up
// and formatting than on its search for the digits.
//
// The shortest decimal that reads back as v (round half to even: the
// bounds belong to v when its mantissa is even) is found exactly, in
// integers, in the manner of Schubfach (R. Giulietti, "The Schubfach way
// to render doubles", 2020), at a scale where the search has two
// outcomes. With v = m*2^-s, the half-way points to v's neighbours are
// (4m-2)/2^(s+2) and (4m+2)/2^(s+2) ((4m-1) below a power of two); in
// units of 10^-d they are those numerators times 5^d over 2^(s+2-d), all
// below 2^51 in this range. d is the binade's (ftoa32Scales): the least
// with 10^d >= 2^s, so that the interval between the half-way points,
// one ulp, is at least one unit and less than ten. The decimals of d
// places that read back as v are the integers lo..hi inside it:
//
//   - a multiple of ten among them (there can be only one) has fewer
//     significant digits than any other, and is the shortest, with its
//     trailing zeros trimmed (one of fewer places than d-1 is a multiple
//     of ten too, so it is that one);
//   - else they all have as many digits, and strconv writes the one
//     closest to v, of two as close the even one: v's integer part or
//     the next integer.
//
// The digits are then written eight at a time (digits8), straight into
// b's spare capacity, with no copy through a buffer of digits.
// TestAppendFloat32 compares it with strconv on every float32 of a sample
// of binades (on all of them with TRAINREPORT_FTOA32_ALL=1) and
// FuzzAppendFloat32 on any.
func appendFloat32(b []byte, v float64) ([]byte, bool) {
	f := float32(v)
	if float64(f) != v {
		return b, false
	}
	u := math.Float32bits(f)
	exp := int(u>>23) & 0xff
	// exp-127 is the binade: [2^-10, 2^24) is exp in [117, 150].
	if exp < 117 || exp > 150 {
		return b, false
	}
	sc := ftoa32Scales[exp-117]
	m := uint64(u&(1<<23-1) | 1<<23)
	t := sc.t // the bounds are L, X, H over 2^t: units of 10^-d
	X := 4 * m * sc.p5
	L, H := X-2*sc.p5, X+2*sc.p5
	if m == 1<<23 {
		L = X - sc.p5 // the neighbour below is half as far
	}
	// lo, hi: the integers in the interval; its bounds belong to it when
	// m is even (round half to even reads them back as v), not when odd:
	// ceil(L/2^t) or the next integer above, floor(H/2^t) or the one
	// below, in one expression for both (m's parity is a coin flip too).
	mask, odd := uint64(1)<<t-1, m&1
	lo, hi := (L+mask+odd)>>t, (H-odd)>>t
	if lo > hi {
		return b, false // only below a power of two, where the interval is 3/4 of an ulp: left to strconv
	}
	// The integer closest to v, of two as close the even one, then the
	// multiple of ten when there is one; computed, not branched on: which
	// it is varies from value to value as a coin flip would.
	c, places := X>>t, int(sc.d)
	frac, half := X&mask, uint64(1)<<(t-1)
	// Up when v's fraction of a unit is over half, or half and c odd, and
	// c+1 is inside: sign bits of differences (all below 2^62), no branch.
	up := (half - (frac + c&1)) >> 63 & ((c - hi) >> 63)
	c = max(c+up, lo)
	if c10 := hi / 10 * 10; c10 >= lo {
		c = c10
	}
	// Room for "-0." and ten places of digits, written a word at a time.
	if cap(b)-len(b) < 32 {
		b = append(b, make([]byte, 32)...)[:len(b)]
	}
	n := len(b)
	out := b[n : n+32]
	i := 0
	if v < 0 {
		out[0] = '-'
		i = 1
	}
	// c >= lo > 2^23-1 (10^d >= 2^s) and c < 2^24*10^d/2^s < 1.7e8: seven
	// or eight digits, or a one and eight; its trailing zeros, which the
	// shortest form drops (up to the point), are the '0' bytes at the top
	// of its last eight digits' word.
	nd := 7
	if c >= 1e7 {
		nd++
	}
	if c >= 1e8 {
		nd++
	}
	w := digits8(uint32(c % 1e8))
	zeros := min(bits.LeadingZeros64(w-0x3030303030303030)/8, places)
	if nd < 8 {
		// Below 1 with seven places or fewer, a leading zero, "0.":
		// written by the default case, as any other, not by a branch of
		// its own (values about 1 go either way).
		if places < 8 {
			nd = max(nd, places+1)
		}
		w >>= 8 * (8 - nd) // the first digit in the low byte
	}
	switch {
	case places >= nd:
		// 0.000ddd: "0." and zeros, then the digits over some of them.
		binary.LittleEndian.PutUint64(out[i:], 0x3030303030302e30)
		binary.LittleEndian.PutUint64(out[i+8:], 0x3030303030303030)
		j := i + 2 + places - nd
		if nd == 9 {
			out[j] = '1'
			j++
		}
		binary.LittleEndian.PutUint64(out[j:], w)
		i += 2 + places
	case nd == 9:
		// 1dd.ddddd: the one, then as below with eight digits.
		out[i] = '1'
		i++
		whole := 8 - places // digits of w before the point
		binary.LittleEndian.PutUint64(out[i:], w)
		out[i+whole] = '.'
		binary.LittleEndian.PutUint64(out[i+whole+1:], w>>(8*whole))
		i += 9
	default:
		whole := nd - places
		binary.LittleEndian.PutUint64(out[i:], w)
		i += nd
		if places > 0 {
			out[i-places] = '.'
			binary.LittleEndian.PutUint64(out[i-places+1:], w>>(8*whole))
			i++
		}
	}
	i -= zeros
	if zeros == places && places > 0 {
		i-- // no decimals left: no point
	}
	return b[:n+i], true
}

// ftoa32Scale is the scale of appendFloat32's search in a binade:
// decimals of d places, with 5^d and t = s+2-d for v = m*2^-s.
type ftoa32Scale struct {
	p5   uint64
	t, d uint8
}

// ftoa32Scales holds the scales of appendFloat32's binades, exponent bits
// 117 to 150 ([2^-10, 2^24), s = 150-exp from 33 to 0): d the least with
// 10^d >= 2^s, computed in integers.
var ftoa32Scales = func() (sc [34]ftoa32Scale) {
	for i := range sc {
		s := 33 - i
		d, p10, p5 := 0, uint64(1), uint64(1)
		for p10 < 1<<s {
			d, p10, p5 = d+1, p10*10, p5*5
		}
		sc[i] = ftoa32Scale{p5: p5, t: uint8(s + 2 - d), d: uint8(d)}
	}
	return sc
}()

// pow10u32 holds 10^0..10^8.
var pow10u32 = [9]uint64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}

// digits8 returns the eight decimal digits of n < 10^8, leading zeros
// included, as ASCII bytes of a word, the first digit in its low byte
// (little-endian: stored as is, they read in order). The digits are split
// in lanes, 4+4, then 2+2+2+2, then 1+...+1, each split a multiplication
// for all lanes at once (D. Lemire, "Converting integers to fix-digit
// representations quickly", 2021): TestDigits8 checks it on every n.
func digits8(n uint32) uint64 {
	x := uint64(n/10000) | uint64(n%10000)<<32
	hundreds := (x * 10486 >> 20) & 0x7f_0000_007f // x/100 in each of two lanes below 10^4
	x = hundreds | (x-100*hundreds)<<16
	tens := (x * 103 >> 10) & 0x000f_000f_000f_000f // x/10 in each of four lanes below 100
	x = tens | (x-10*tens)<<8
	return x + 0x3030303030303030
}
