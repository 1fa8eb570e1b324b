//go:build amd64 && !purego

package render

import "golang.org/x/sys/cpu"

// useAVX512 reports whether putFloat32s may call putFloat32sAVX512: the
// CPU has (and the OS saves) the AVX-512 subsets it runs, F and DQ
// (VPMULLQ), BW (byte and word lanes), CD (VPLZCNTQ), VBMI (VPERMB) and
// VBMI2 (VPCOMPRESSB), and POPCNT. Set once, at start.
var useAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512BW &&
	cpu.X86.HasAVX512CD && cpu.X86.HasAVX512VBMI && cpu.X86.HasAVX512VBMI2 && cpu.X86.HasPOPCNT

// ftoa32LaneScales is ftoa32Scales laid out for putFloat32sAVX512,
// which looks the scales up by permutes of registers: p5 of binade e at
// p5[e], d at d[e] (padded to a register's 8 and 64 lanes).
type ftoa32LaneScales struct {
	p5 [40]uint64
	d  [64]uint8
}

// ftoa32Lanes is ftoa32Scales as ftoa32LaneScales, made once.
var ftoa32Lanes = func() (l ftoa32LaneScales) {
	for e, sc := range ftoa32Scales {
		l.p5[e], l.d[e] = sc.p5, uint8(sc.d)
	}
	return l
}()

// putFloat32sAVX512 is putFloat32s for groups of eight values, in the
// lanes of AVX-512 registers (ftoa32_amd64.s), scales being
// &ftoa32Lanes: it writes the groups of vs whose eight values are all
// float32s it takes, while dst has room for eight values (8*float32Room
// bytes, more than its 64-byte stores reach), and returns how many bytes
// it wrote and how many values, a multiple of eight. It stops at the
// first group it does not take, which putFloat32sGo then formats up to
// the value it leaves to strconv.
//
//go:noescape
func putFloat32sAVX512(dst []byte, vs []float64, scales *ftoa32LaneScales) (n, done int)
