//go:build amd64 && !purego

#include "textflag.h"

// putFloat32sAVX512 runs putFloat32sGo's search and digits for eight
// values at once, one value a 64-bit lane of a ZMM register, then writes
// their text four values to a register: each value's characters in a
// 16-byte lane (VPSHUFB of its digits, then '.', '-' and ',' put in by
// masks), packed by VPCOMPRESSB and stored 64 bytes at a time, the
// bytes past the last value's comma being overwritten by the next store
// or left in dst's room, as putFloat32sGo's eight-byte stores leave
// theirs. It takes two groups of eight a turn, stage by stage (see the
// stages' macros below), and one group at a time before a group it
// leaves and where there is room for one only. Comments name
// putFloat32sGo's variables.

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
DATA ftoaZeros<>+0(SB)/8, $0x3030303030303030
GLOBL ftoaZeros<>(SB), RODATA|NOPTR, $8

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

// The third split, x/10 as x*(103<<6)>>16, and 10<<8 - 1.
WORDS(ftoaDiv10w<>, $0x19c019c019c019c0)
WORDS(ftoaSplit10<>, $0x09ff09ff09ff09ff)

// Bytes of 1 and the characters put in by masks.
WORDS(ftoaOnes<>, $0x0101010101010101)
WORDS(ftoaDots<>, $0x2e2e2e2e2e2e2e2e)
WORDS(ftoaMinuses<>, $0x2d2d2d2d2d2d2d2d)
WORDS(ftoaCommas<>, $0x2c2c2c2c2c2c2c2c)

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

// ftoaPairLo, ftoaPairHi: VPERMI2Q indices that interleave the
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

// The kernel in stages, each a macro of the registers it uses, so that
// the loop of two groups runs each stage for both before the next: one
// group's chain of dependent instructions, from its load to its
// stores, is about as long as the time it takes, and the scheduler
// then sees the other group's independent work. Registers of a group:
// U, E, P5, P, M, X, LO, HI, T1, T2, C, S, LEN, and three masks, K1-K3
// (names of putFloat32sGo's variables: places is P; last8 is C after
// COUNT). A stage's comment says what it leaves in which register.

// RANGE loads the group at OFF(SI) (U) and leaves in K1 its lanes of no
// float32 of the range: a mantissa bit past a float32's, or e =
// exponent-1013 (E) past [0, 33].
#define RANGE(OFF, U, E, K1, K2) \
	VMOVDQU64 OFF(SI), U; \
	VPTESTMQ.BCST ftoaMask29<>(SB), U, K1; \
	VPSLLQ $1, U, E; \
	VPSRLQ $53, E, E; \
	VPSUBQ.BCST ftoaBias<>(SB), E, E; \
	VPCMPUQ.BCST $6, ftoaTop<>(SB), E, K2; \
	KORB K1, K2, K1

// SCALES looks sc.p5 (P5) and sc.d, places (P), up in ftoa32Lanes (R8)
// by permutes, not gathers, which took as long as the rest of the
// search: p5 from entries 0-15, 16-31 or 32-39. K6 is the low byte of
// each 64-bit lane.
#define SCALES(E, P5, P, T1, T2, K2, K3) \
	VMOVDQU64 0(R8), P5; \
	VPERMT2Q 64(R8), E, P5; \
	VMOVDQU64 128(R8), T1; \
	VPERMT2Q 192(R8), E, T1; \
	VPERMQ 256(R8), E, T2; \
	VPTESTMQ.BCST ftoaBit4<>(SB), E, K2; \
	VPTESTMQ.BCST ftoaBit5<>(SB), E, K3; \
	VMOVDQA64 T1, K2, P5; \
	VMOVDQA64 T2, K3, P5; \
	VPERMB.Z 320(R8), E, K6, P

// BOUNDS leaves lo (LO), hi (HI) and X (X), and in K1 the lanes where lo
// > hi. m (M) times 4 is multiplied by p5's low and high 32 bits (p5 <
// 2^36): two VPMULUDQs are sooner than one VPMULLQ.
#define BOUNDS(U, P5, M, X, LO, HI, T1, T2, K1, K2) \
	VPSRLQ $29, U, M; \
	VPANDQ.BCST ftoaMask23<>(SB), M, M; \
	VPORQ.BCST ftoaBit23<>(SB), M, M; \
	VPSLLQ $2, M, T2; \
	VPSRLQ $32, P5, T1; \
	VPMULUDQ P5, T2, X; \
	VPMULUDQ T1, T2, T1; \
	VPSLLQ $32, T1, T1; \
	VPADDQ T1, X, X; \
	VPADDQ P5, P5, T1; \
	VPSUBQ T1, X, LO; \
	VPADDQ T1, X, HI; \
	VPCMPEQQ.BCST ftoaBit23<>(SB), M, K2; \
	VPSUBQ P5, X, K2, LO; \
	VPANDQ.BCST ftoaOne<>(SB), M, T2; \
	VPADDQ.BCST ftoaCeil<>(SB), LO, LO; \
	VPADDQ T2, LO, LO; \
	VPSRLQ $32, LO, LO; \
	VPSUBQ T2, HI, HI; \
	VPSRLQ $32, HI, HI; \
	VPCMPUQ $6, HI, LO, K1

// CLOSEST leaves c (C): X over 2^32 rounded half to even, within [lo,
// hi], or the multiple of ten hi/10*10 when it is at least lo.
#define CLOSEST(X, LO, HI, C, T1, K2) \
	VPSRLQ $32, X, C; \
	VPANDQ.BCST ftoaOne<>(SB), C, C; \
	VPADDQ X, C, C; \
	VPADDQ.BCST ftoaHalf<>(SB), C, C; \
	VPSRLQ $32, C, C; \
	VPMINUQ HI, C, C; \
	VPMAXUQ LO, C, C; \
	VPMULUDQ.BCST ftoaDiv10<>(SB), HI, T1; \
	VPSRLQ $35, T1, T1; \
	VPMULUDQ.BCST ftoaTen<>(SB), T1, T1; \
	VPCMPUQ $5, LO, T1, K2; \
	VMOVDQA64 T1, K2, C

// COUNT leaves the sign (S), last8 (C), in K1 the lanes of c >= 1e8,
// and the digits' length, '0's before the point included, max(nd,
// places+1) (LEN).
#define COUNT(U, P, C, S, LEN, T1, K1, K3) \
	VPSRLQ $63, U, S; \
	VPCMPUQ.BCST $5, ftoa1e7<>(SB), C, K3; \
	VPCMPUQ.BCST $5, ftoa1e8<>(SB), C, K1; \
	VPBROADCASTQ ftoaSeven<>(SB), LEN; \
	VPADDQ.BCST ftoaOne<>(SB), LEN, K3, LEN; \
	VPADDQ.BCST ftoaOne<>(SB), LEN, K1, LEN; \
	VPSUBQ.BCST ftoa1e8<>(SB), C, K1, C; \
	VPADDQ.BCST ftoaOne<>(SB), P, T1; \
	VPMAXUQ T1, LEN, LEN

// DIGITS leaves digitLanes(last8) (X): the first split in 64-bit lanes,
// the second in 32-bit ones (each x < 10^4 in the low half), the third
// in 16-bit ones, the quotients by multiplications of 16-bit halves,
// sooner than of 32 bits.
#define DIGITS(C, X, T1, T2) \
	VPMULUDQ.BCST ftoaDiv1e4<>(SB), C, T1; \
	VPSRLQ $40, T1, T1; \
	VPMULUDQ.BCST ftoa1e4<>(SB), T1, X; \
	VPSUBQ X, C, X; \
	VPSLLQ $32, X, X; \
	VPORQ T1, X, X; \
	VPMULHUW ftoaDiv100<>(SB), X, T1; \
	VPSRLW $4, T1, T1; \
	VPMULLW ftoaHundred<>(SB), T1, T2; \
	VPSUBW T2, X, X; \
	VPSLLD $16, X, X; \
	VPORD T1, X, X; \
	VPMULHUW ftoaDiv10w<>(SB), X, T1; \
	VPMULLW ftoaSplit10<>(SB), T1, T1; \
	VPSLLW $8, X, X; \
	VPSUBW T1, X, X

// PLACES leaves the digits as characters, the last eight (X) and the
// eight before them, '0's and the one of c >= 1e8 (LEAD); start =
// 16-length-sign (START), dot = sign+length-places (DOT), and the
// comma's place (LEN): dot, or past the decimals left when there are
// some, 1+places-zeros of them with the point. Z (zeros) is a scratch.
#define PLACES(P, S, LEN, X, Z, LEAD, START, DOT, T1, K1, K2) \
	VPLZCNTQ X, Z; \
	VPSRLQ $3, Z, Z; \
	VPMINUQ P, Z, Z; \
	VPORQ.BCST ftoaZeros<>(SB), X, X; \
	VPBROADCASTQ ftoaZeros<>(SB), LEAD; \
	VPORQ.BCST ftoaOneAt7<>(SB), LEAD, K1, LEAD; \
	VPADDQ S, LEN, DOT; \
	VPBROADCASTQ ftoaSixteen<>(SB), START; \
	VPSUBQ DOT, START, START; \
	VPSUBQ P, DOT, DOT; \
	VPCMPUQ $1, P, Z, K2; \
	VPSUBQ Z, P, T1; \
	VPADDQ.BCST ftoaOne<>(SB), T1, T1; \
	VPADDQ DOT, T1, T1; \
	VPBLENDMQ T1, DOT, K2, LEN

// PAIRS leaves each value's sixteen digits in a 16-byte lane: values
// 0-3 in D1, 4-7 in D2.
#define PAIRS(X, LEAD, D1, D2) \
	VMOVDQU64 ftoaPairLo<>(SB), D1; \
	VPERMI2Q X, LEAD, D1; \
	VMOVDQU64 ftoaPairHi<>(SB), D2; \
	VPERMI2Q X, LEAD, D2

// TEXT4 writes the text of the four values whose digits are in D's
// 16-byte lanes, spread by the VPERMB indices SPREAD from START, DOT, S
// and LEN, at DI+AX, and adds the bytes written to AX. A character at j
// of a value's text is its digit at start+j, or start+j-1 past the
// point; the point, the sign and the comma are put in by masks of j
// (ftoaIota) against dot, the sign and len, and VPCOMPRESSB packs the
// characters up to the comma. Z26-Z29 and T are scratch.
#define TEXT4(D, SPREAD, START, DOT, S, LEN, T) \
	VPERMB START, SPREAD, Z26; \
	VPERMB DOT, SPREAD, Z27; \
	VPERMB S, SPREAD, Z28; \
	VPERMB LEN, SPREAD, Z29; \
	VPADDB ftoaIota<>(SB), Z26, Z26; \
	VPCMPUB $1, ftoaIota<>(SB), Z27, K2; \
	VPSUBB ftoaOnes<>(SB), Z26, K2, Z26; \
	VPSHUFB Z26, D, T; \
	VPCMPEQB ftoaIota<>(SB), Z27, K2; \
	VMOVDQU8 ftoaDots<>(SB), K2, T; \
	VPCMPUB $6, ftoaIota<>(SB), Z28, K2; \
	VMOVDQU8 ftoaMinuses<>(SB), K2, T; \
	VPCMPEQB ftoaIota<>(SB), Z29, K2; \
	VMOVDQU8 ftoaCommas<>(SB), K2, T; \
	VPCMPUB $5, ftoaIota<>(SB), Z29, K3; \
	VPCOMPRESSB T, K3, Z26; \
	VMOVDQU64 Z26, (DI)(AX*1); \
	KMOVQ K3, R9; \
	POPCNTQ R9, R9; \
	ADDQ R9, AX

// Group A's registers and masks, and group B's.
#define A_U Z0
#define A_E Z1
#define A_P5 Z2
#define A_P Z3
#define A_M Z4
#define A_X Z5
#define A_LO Z6
#define A_HI Z7
#define A_T1 Z8
#define A_T2 Z9
#define A_C Z10
#define A_S Z11
#define A_LEN Z12
#define B_U Z13
#define B_E Z14
#define B_P5 Z15
#define B_P Z16
#define B_M Z17
#define B_X Z18
#define B_LO Z19
#define B_HI Z20
#define B_T1 Z21
#define B_T2 Z22
#define B_C Z23
#define B_S Z24
#define B_LEN Z25

// The stages of a group, in order, after RANGE. The registers each
// leaves: SCALES P5, P; BOUNDS X, LO, HI; CLOSEST C; COUNT S, C, LEN;
// DIGITS the lanes in LO; PLACES the characters in LO and P5, start in
// M, dot in X, len in LEN; PAIRS the sixteen digits in HI and U.
#define SCALES_A SCALES(A_E, A_P5, A_P, A_T1, A_T2, K2, K3)
#define SCALES_B SCALES(B_E, B_P5, B_P, B_T1, B_T2, K5, K7)
#define BOUNDS_A BOUNDS(A_U, A_P5, A_M, A_X, A_LO, A_HI, A_T1, A_T2, K1, K2)
#define BOUNDS_B BOUNDS(B_U, B_P5, B_M, B_X, B_LO, B_HI, B_T1, B_T2, K4, K5)
#define CLOSEST_A CLOSEST(A_X, A_LO, A_HI, A_C, A_T1, K2)
#define CLOSEST_B CLOSEST(B_X, B_LO, B_HI, B_C, B_T1, K5)
#define COUNT_A COUNT(A_U, A_P, A_C, A_S, A_LEN, A_T1, K1, K3)
#define COUNT_B COUNT(B_U, B_P, B_C, B_S, B_LEN, B_T1, K4, K7)
#define DIGITS_A DIGITS(A_C, A_LO, A_T1, A_T2)
#define DIGITS_B DIGITS(B_C, B_LO, B_T1, B_T2)
#define PLACES_A PLACES(A_P, A_S, A_LEN, A_LO, A_E, A_P5, A_M, A_X, A_T1, K1, K2)
#define PLACES_B PLACES(B_P, B_S, B_LEN, B_LO, B_E, B_P5, B_M, B_X, B_T1, K4, K5)
#define PAIRS_A PAIRS(A_LO, A_P5, A_HI, A_U)
#define PAIRS_B PAIRS(B_LO, B_P5, B_HI, B_U)
#define TEXT_A \
	TEXT4(A_HI, Z30, A_M, A_X, A_S, A_LEN, A_C); \
	TEXT4(A_U, Z31, A_M, A_X, A_S, A_LEN, A_C)
#define TEXT_B \
	TEXT4(B_HI, Z30, B_M, B_X, B_S, B_LEN, B_C); \
	TEXT4(B_U, Z31, B_M, B_X, B_S, B_LEN, B_C)

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
	VMOVDQU64 ftoaSpreadLo<>(SB), Z30
	VMOVDQU64 ftoaSpreadHi<>(SB), Z31
	MOVQ $0x0101010101010101, R9
	KMOVQ R9, K6

	// Two groups a turn while both are taken and there is room for both
	// (2*8*float32Room bytes).
pair:
	CMPQ BX, $16
	JB   single
	MOVQ CX, R10
	SUBQ AX, R10
	CMPQ R10, $384
	JB   single
	RANGE(0, A_U, A_E, K1, K2)
	RANGE(64, B_U, B_E, K4, K5)
	KORTESTB K4, K1
	JNZ  single
	SCALES_A
	SCALES_B
	BOUNDS_A
	BOUNDS_B
	KORTESTB K4, K1 // lo > hi: no float32 of the range has it, but putFloat32sGo checks
	JNZ  single
	CLOSEST_A
	CLOSEST_B
	COUNT_A
	COUNT_B
	DIGITS_A
	DIGITS_B
	PLACES_A
	PLACES_B
	PAIRS_A
	PAIRS_B
	TEXT_A
	TEXT_B
	ADDQ $128, SI
	SUBQ $16, BX
	ADDQ $16, DX
	JMP  pair

	// One group, before a group the pair loop cannot take, or the last
	// eight values, or when there is room for eight only.
single:
	CMPQ BX, $8
	JB   done
	MOVQ CX, R10
	SUBQ AX, R10
	CMPQ R10, $192 // 8*float32Room
	JB   done
	RANGE(0, A_U, A_E, K1, K2)
	KORTESTB K1, K1
	JNZ  done
	SCALES_A
	BOUNDS_A
	KORTESTB K1, K1
	JNZ  done
	CLOSEST_A
	COUNT_A
	DIGITS_A
	PLACES_A
	PAIRS_A
	TEXT_A
	ADDQ $64, SI
	SUBQ $8, BX
	ADDQ $8, DX
	JMP  pair

done:
	VZEROUPPER

none:
	MOVQ AX, n+56(FP)
	MOVQ DX, done+64(FP)
	RET
