//go:build amd64 && !purego

#include "textflag.h"

// putFloat32sAVX512 runs putFloat32sGo's search and digits for eight
// values at once, one value a 64-bit lane of a ZMM register, then writes
// their text four values to a register: each value's characters in a
// 16-byte lane (VPSHUFB of its digits, then '.', '-' and ',' put in by
// masks), packed by VPCOMPRESSB and stored 64 bytes at a time, the
// bytes past the last value's comma being overwritten by the next store
// or left in dst's room, as putFloat32sGo's eight-byte stores leave
// theirs. Comments name putFloat32sGo's variables.

// Constants of the 64-bit lanes, broadcast from memory.
DATA ftoaMask29<>+0(SB)/8, $0x1fffffff
GLOBL ftoaMask29<>(SB), RODATA|NOPTR, $8
DATA ftoaBias<>+0(SB)/8, $1013
GLOBL ftoaBias<>(SB), RODATA|NOPTR, $8
DATA ftoaTop<>+0(SB)/8, $33
GLOBL ftoaTop<>(SB), RODATA|NOPTR, $8
DATA ftoaMask23<>+0(SB)/8, $0x7fffff
GLOBL ftoaMask23<>(SB), RODATA|NOPTR, $8
DATA ftoaBit23<>+0(SB)/8, $0x800000
GLOBL ftoaBit23<>(SB), RODATA|NOPTR, $8
DATA ftoaOne<>+0(SB)/8, $1
GLOBL ftoaOne<>(SB), RODATA|NOPTR, $8
DATA ftoaCeil<>+0(SB)/8, $0xffffffff
GLOBL ftoaCeil<>(SB), RODATA|NOPTR, $8
DATA ftoaHalf<>+0(SB)/8, $0x7fffffff
GLOBL ftoaHalf<>(SB), RODATA|NOPTR, $8
DATA ftoaDiv10<>+0(SB)/8, $0xcccccccd
GLOBL ftoaDiv10<>(SB), RODATA|NOPTR, $8
DATA ftoaTen<>+0(SB)/8, $10
GLOBL ftoaTen<>(SB), RODATA|NOPTR, $8
DATA ftoa1e7<>+0(SB)/8, $10000000
GLOBL ftoa1e7<>(SB), RODATA|NOPTR, $8
DATA ftoa1e8<>+0(SB)/8, $100000000
GLOBL ftoa1e8<>(SB), RODATA|NOPTR, $8
DATA ftoaSeven<>+0(SB)/8, $7
GLOBL ftoaSeven<>(SB), RODATA|NOPTR, $8
DATA ftoaSixteen<>+0(SB)/8, $16
GLOBL ftoaSixteen<>(SB), RODATA|NOPTR, $8
DATA ftoaDiv1e4<>+0(SB)/8, $109951163
GLOBL ftoaDiv1e4<>(SB), RODATA|NOPTR, $8
DATA ftoa1e4<>+0(SB)/8, $10000
GLOBL ftoa1e4<>(SB), RODATA|NOPTR, $8
DATA ftoaOneAt7<>+0(SB)/8, $0x0100000000000000
GLOBL ftoaOneAt7<>(SB), RODATA|NOPTR, $8

DATA ftoaBit4<>+0(SB)/8, $16
GLOBL ftoaBit4<>(SB), RODATA|NOPTR, $8
DATA ftoaBit5<>+0(SB)/8, $32
GLOBL ftoaBit5<>(SB), RODATA|NOPTR, $8

// Constants of the 16-bit lanes: digitLanes's second split, x/100 as
// (x*10486>>16)>>4, and its 100.
#define WORDS(name, w) \
	DATA name+0(SB)/8, w; \
	DATA name+8(SB)/8, w; \
	DATA name+16(SB)/8, w; \
	DATA name+24(SB)/8, w; \
	DATA name+32(SB)/8, w; \
	DATA name+40(SB)/8, w; \
	DATA name+48(SB)/8, w; \
	DATA name+56(SB)/8, w; \
	GLOBL name(SB), RODATA|NOPTR, $64
WORDS(ftoaDiv100<>, $0x28f628f628f628f6)
WORDS(ftoaHundred<>, $0x0064006400640064)

// ftoaIota: each byte's place in its 16-byte lane.
DATA ftoaIota<>+0(SB)/8, $0x0706050403020100
DATA ftoaIota<>+8(SB)/8, $0x0f0e0d0c0b0a0908
DATA ftoaIota<>+16(SB)/8, $0x0706050403020100
DATA ftoaIota<>+24(SB)/8, $0x0f0e0d0c0b0a0908
DATA ftoaIota<>+32(SB)/8, $0x0706050403020100
DATA ftoaIota<>+40(SB)/8, $0x0f0e0d0c0b0a0908
DATA ftoaIota<>+48(SB)/8, $0x0706050403020100
DATA ftoaIota<>+56(SB)/8, $0x0f0e0d0c0b0a0908
GLOBL ftoaIota<>(SB), RODATA|NOPTR, $64

// ftoaSpreadLo, ftoaSpreadHi: VPERMB indices that copy the low byte of
// 64-bit lane k (values 0-3, values 4-7) to every byte of 16-byte lane k.
DATA ftoaSpreadLo<>+0(SB)/8, $0x0000000000000000
DATA ftoaSpreadLo<>+8(SB)/8, $0x0000000000000000
DATA ftoaSpreadLo<>+16(SB)/8, $0x0808080808080808
DATA ftoaSpreadLo<>+24(SB)/8, $0x0808080808080808
DATA ftoaSpreadLo<>+32(SB)/8, $0x1010101010101010
DATA ftoaSpreadLo<>+40(SB)/8, $0x1010101010101010
DATA ftoaSpreadLo<>+48(SB)/8, $0x1818181818181818
DATA ftoaSpreadLo<>+56(SB)/8, $0x1818181818181818
GLOBL ftoaSpreadLo<>(SB), RODATA|NOPTR, $64
DATA ftoaSpreadHi<>+0(SB)/8, $0x2020202020202020
DATA ftoaSpreadHi<>+8(SB)/8, $0x2020202020202020
DATA ftoaSpreadHi<>+16(SB)/8, $0x2828282828282828
DATA ftoaSpreadHi<>+24(SB)/8, $0x2828282828282828
DATA ftoaSpreadHi<>+32(SB)/8, $0x3030303030303030
DATA ftoaSpreadHi<>+40(SB)/8, $0x3030303030303030
DATA ftoaSpreadHi<>+48(SB)/8, $0x3838383838383838
DATA ftoaSpreadHi<>+56(SB)/8, $0x3838383838383838
GLOBL ftoaSpreadHi<>(SB), RODATA|NOPTR, $64

// ftoaPairLo, ftoaPairHi: VPERMI2Q/VPERMT2Q indices that interleave the
// 64-bit lanes of two registers (0-7 the first's, 8-15 the second's)
// into pairs, one pair a value: values 0-3, values 4-7.
DATA ftoaPairLo<>+0(SB)/8, $0
DATA ftoaPairLo<>+8(SB)/8, $8
DATA ftoaPairLo<>+16(SB)/8, $1
DATA ftoaPairLo<>+24(SB)/8, $9
DATA ftoaPairLo<>+32(SB)/8, $2
DATA ftoaPairLo<>+40(SB)/8, $10
DATA ftoaPairLo<>+48(SB)/8, $3
DATA ftoaPairLo<>+56(SB)/8, $11
GLOBL ftoaPairLo<>(SB), RODATA|NOPTR, $64
DATA ftoaPairHi<>+0(SB)/8, $4
DATA ftoaPairHi<>+8(SB)/8, $12
DATA ftoaPairHi<>+16(SB)/8, $5
DATA ftoaPairHi<>+24(SB)/8, $13
DATA ftoaPairHi<>+32(SB)/8, $6
DATA ftoaPairHi<>+40(SB)/8, $14
DATA ftoaPairHi<>+48(SB)/8, $7
DATA ftoaPairHi<>+56(SB)/8, $15
GLOBL ftoaPairHi<>(SB), RODATA|NOPTR, $64

// TEXT writes the text of four values whose digits are in D's 16-byte
// lanes (each a 16-digit decimal, '0's to the left), spread by the
// VPERMB indices SPREAD from Z16 (the first character's place in the
// lane, start), Z15 (the point's place in the text, dot), Z13 (sign) and
// Z14 (the comma's place, the text's length), at DI+AX, and adds the
// bytes written to AX. Z31 is ftoaIota, Z21 bytes of 1, Z22-Z24 bytes of
// ',', '-' and '.'. A character at j of the text is the digit at start+j,
// or start+j-1 past the point.
#define TEXT4(D, SPREAD) \
	VPERMB Z16, SPREAD, Z1; \
	VPERMB Z15, SPREAD, Z2; \
	VPERMB Z13, SPREAD, Z3; \
	VPERMB Z14, SPREAD, Z5; \
	VPADDB Z31, Z1, Z1; \
	VPCMPUB $6, Z2, Z31, K1; \
	VPSUBB Z21, Z1, K1, Z1; \
	VPSHUFB Z1, D, Z6; \
	VPCMPEQB Z2, Z31, K1; \
	VMOVDQU8 Z24, K1, Z6; \
	VPCMPUB $1, Z3, Z31, K1; \
	VMOVDQU8 Z23, K1, Z6; \
	VPCMPEQB Z5, Z31, K1; \
	VMOVDQU8 Z22, K1, Z6; \
	VPCMPUB $2, Z5, Z31, K2; \
	VPCOMPRESSB Z6, K2, Z7; \
	VMOVDQU64 Z7, (DI)(AX*1); \
	KMOVQ K2, R9; \
	POPCNTQ R9, R9; \
	ADDQ R9, AX

// func putFloat32sAVX512(dst []byte, vs []float64, scales *ftoa32LaneScales) (n, done int)
TEXT ·putFloat32sAVX512(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ vs_base+24(FP), SI
	MOVQ vs_len+32(FP), BX
	MOVQ scales+48(FP), R8
	XORQ AX, AX // n
	XORQ DX, DX // done
	CMPQ BX, $8
	JB   none

	VMOVDQU64 ftoaIota<>(SB), Z31
	VMOVDQU64 ftoaSpreadLo<>(SB), Z30
	VMOVDQU64 ftoaSpreadHi<>(SB), Z29
	VMOVDQU64 ftoaPairLo<>(SB), Z28
	VMOVDQU64 ftoaPairHi<>(SB), Z27
	MOVQ $6592, R9
	VPBROADCASTW R9, Z26 // digitLanes's third split, x/10: x*103>>10 = x*(103<<6)>>16
	MOVQ $2559, R9
	VPBROADCASTW R9, Z25 // 10<<8 - 1
	MOVQ $'.', R9
	VPBROADCASTB R9, Z24
	MOVQ $'-', R9
	VPBROADCASTB R9, Z23
	MOVQ $',', R9
	VPBROADCASTB R9, Z22
	MOVQ $1, R9
	VPBROADCASTB R9, Z21
	MOVQ $0x3030303030303030, R9
	VPBROADCASTQ R9, Z20
	MOVQ $0x0101010101010101, R9
	KMOVQ R9, K6 // the low byte of each 64-bit lane

loop:
	CMPQ BX, $8
	JB   done
	MOVQ CX, R10
	SUBQ AX, R10
	CMPQ R10, $192 // 8*float32Room
	JB   done
	VMOVDQU64 (SI), Z0 // u

	// The range: no mantissa bit past a float32's, e = exponent-1013 in
	// [0, 33], else the group is left to putFloat32sGo.
	VPTESTMQ.BCST ftoaMask29<>(SB), Z0, K1
	VPSLLQ $1, Z0, Z1
	VPSRLQ $53, Z1, Z1
	VPSUBQ.BCST ftoaBias<>(SB), Z1, Z1
	VPCMPUQ.BCST $6, ftoaTop<>(SB), Z1, K2
	KORB K1, K2, K1
	KORTESTB K1, K1
	JNZ  done

	// sc.p5 (Z3) and sc.d, places (Z4), looked up by permutes of the
	// tables in registers, not gathered, which took as long as the
	// rest of the search: p5 from entries 0-15, 16-31 or 32-39.
	VMOVDQU64 0(R8), Z3
	VPERMT2Q 64(R8), Z1, Z3
	VMOVDQU64 128(R8), Z7
	VPERMT2Q 192(R8), Z1, Z7
	VPERMQ 256(R8), Z1, Z8
	VPTESTMQ.BCST ftoaBit4<>(SB), Z1, K3
	VPTESTMQ.BCST ftoaBit5<>(SB), Z1, K4
	VMOVDQA64 Z7, K3, Z3
	VMOVDQA64 Z8, K4, Z3
	VPERMB.Z 320(R8), Z1, K6, Z4

	// m (Z5), X (Z6), L (Z8), H (Z9), odd (Z10), lo (Z8), hi (Z9). X is
	// 4m times p5's low and high 32 bits (p5 < 2^36), two VPMULUDQs:
	// sooner than one VPMULLQ.
	VPSRLQ $29, Z0, Z5
	VPANDQ.BCST ftoaMask23<>(SB), Z5, Z5
	VPORQ.BCST ftoaBit23<>(SB), Z5, Z5
	VPSLLQ $2, Z5, Z12
	VPSRLQ $32, Z3, Z7
	VPMULUDQ Z3, Z12, Z6
	VPMULUDQ Z7, Z12, Z7
	VPSLLQ $32, Z7, Z7
	VPADDQ Z7, Z6, Z6
	VPADDQ Z3, Z3, Z7
	VPSUBQ Z7, Z6, Z8
	VPADDQ Z7, Z6, Z9
	VPCMPEQQ.BCST ftoaBit23<>(SB), Z5, K5
	VPSUBQ Z3, Z6, K5, Z8
	VPANDQ.BCST ftoaOne<>(SB), Z5, Z10
	VPADDQ.BCST ftoaCeil<>(SB), Z8, Z8
	VPADDQ Z10, Z8, Z8
	VPSRLQ $32, Z8, Z8
	VPSUBQ Z10, Z9, Z9
	VPSRLQ $32, Z9, Z9
	VPCMPUQ $6, Z9, Z8, K1 // lo > hi: left to putFloat32sGo
	KORTESTB K1, K1
	JNZ  done

	// c (Z11): X over 2^32 rounded half to even, within [lo, hi], or
	// the multiple of ten hi/10*10 when it is at least lo.
	VPSRLQ $32, Z6, Z11
	VPANDQ.BCST ftoaOne<>(SB), Z11, Z11
	VPADDQ Z6, Z11, Z11
	VPADDQ.BCST ftoaHalf<>(SB), Z11, Z11
	VPSRLQ $32, Z11, Z11
	VPMINUQ Z9, Z11, Z11
	VPMAXUQ Z8, Z11, Z11
	VPMULUDQ.BCST ftoaDiv10<>(SB), Z9, Z12
	VPSRLQ $35, Z12, Z12
	VPMULUDQ.BCST ftoaTen<>(SB), Z12, Z12
	VPCMPUQ $5, Z8, Z12, K1
	VMOVDQA64 Z12, K1, Z11

	// The sign (Z13), nd (Z14), last8 (Z11), and the digits' length,
	// '0's before the point included: max(nd, places+1) (Z14).
	VPSRLQ $63, Z0, Z13
	VPCMPUQ.BCST $5, ftoa1e7<>(SB), Z11, K3
	VPCMPUQ.BCST $5, ftoa1e8<>(SB), Z11, K2
	VPBROADCASTQ ftoaSeven<>(SB), Z14
	VPADDQ.BCST ftoaOne<>(SB), Z14, K3, Z14
	VPADDQ.BCST ftoaOne<>(SB), Z14, K2, Z14
	VPSUBQ.BCST ftoa1e8<>(SB), Z11, K2, Z11
	VPADDQ.BCST ftoaOne<>(SB), Z4, Z15
	VPMAXUQ Z15, Z14, Z14

	// digitLanes(last8) (Z17): the first split in 64-bit lanes, the
	// second in 32-bit ones (each x < 10^4 in the low half), the third in
	// 16-bit ones; the quotients by multiplications of 16-bit halves,
	// sooner than of 32 bits.
	VPMULUDQ.BCST ftoaDiv1e4<>(SB), Z11, Z16
	VPSRLQ $40, Z16, Z16
	VPMULUDQ.BCST ftoa1e4<>(SB), Z16, Z17
	VPSUBQ Z17, Z11, Z17
	VPSLLQ $32, Z17, Z17
	VPORQ Z16, Z17, Z17
	VPMULHUW ftoaDiv100<>(SB), Z17, Z16
	VPSRLW $4, Z16, Z16
	VPMULLW ftoaHundred<>(SB), Z16, Z12
	VPSUBW Z12, Z17, Z17
	VPSLLD $16, Z17, Z17
	VPORD Z16, Z17, Z17
	VPMULHUW Z26, Z17, Z16
	VPMULLW Z25, Z16, Z16
	VPSLLW $8, Z17, Z17
	VPSUBW Z16, Z17, Z17

	// zeros (Z18), then the digits as characters: the last eight (Z17)
	// and the eight before them, '0's and the one of c >= 1e8 (Z19).
	VPLZCNTQ Z17, Z18
	VPSRLQ $3, Z18, Z18
	VPMINUQ Z4, Z18, Z18
	VPORQ Z20, Z17, Z17
	VMOVDQA64 Z20, Z19
	VPORQ.BCST ftoaOneAt7<>(SB), Z20, K2, Z19

	// start = 16-length-sign (Z16), dot = sign+length-places (Z15), and
	// the comma's place (Z14): dot, or past the decimals left when there
	// are some, 1+places-zeros of them with the point.
	VPADDQ Z13, Z14, Z15
	VPBROADCASTQ ftoaSixteen<>(SB), Z16
	VPSUBQ Z15, Z16, Z16
	VPSUBQ Z4, Z15, Z15
	VPCMPUQ $1, Z4, Z18, K1
	VPSUBQ Z18, Z4, Z12
	VPADDQ.BCST ftoaOne<>(SB), Z12, Z12
	VPADDQ Z15, Z12, Z12
	VPBLENDMQ Z12, Z15, K1, Z14

	// Each value's sixteen digits in a 16-byte lane: values 0-3 in Z0,
	// 4-7 in Z19; then their text.
	VMOVDQA64 Z28, Z0
	VPERMI2Q Z17, Z19, Z0
	VPERMT2Q Z17, Z27, Z19
	TEXT4(Z0, Z30)
	TEXT4(Z19, Z29)

	ADDQ $64, SI
	SUBQ $8, BX
	ADDQ $8, DX
	JMP  loop

done:
	VZEROUPPER

none:
	MOVQ AX, n+56(FP)
	MOVQ DX, done+64(FP)
	RET
