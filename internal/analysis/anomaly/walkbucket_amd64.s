//go:build !purego

#include "textflag.h"

// The permutations that take 8 points (24 quadwords in three registers,
// A:B:C, a point's WallTime, Step and Value in turn) apart: the first
// picks from A:B the lanes it can, the second keeps those and fills the
// rest from C (an index of 8 or more names C's lane less 8).
DATA walkIdx<>+0x000(SB)/8, $2 // values: quadwords 2, 5, ..., 23
DATA walkIdx<>+0x008(SB)/8, $5
DATA walkIdx<>+0x010(SB)/8, $8
DATA walkIdx<>+0x018(SB)/8, $11
DATA walkIdx<>+0x020(SB)/8, $14
DATA walkIdx<>+0x028(SB)/8, $0
DATA walkIdx<>+0x030(SB)/8, $0
DATA walkIdx<>+0x038(SB)/8, $0
DATA walkIdx<>+0x040(SB)/8, $0
DATA walkIdx<>+0x048(SB)/8, $1
DATA walkIdx<>+0x050(SB)/8, $2
DATA walkIdx<>+0x058(SB)/8, $3
DATA walkIdx<>+0x060(SB)/8, $4
DATA walkIdx<>+0x068(SB)/8, $9
DATA walkIdx<>+0x070(SB)/8, $12
DATA walkIdx<>+0x078(SB)/8, $15
DATA walkIdx<>+0x080(SB)/8, $1 // steps: quadwords 1, 4, ..., 22
DATA walkIdx<>+0x088(SB)/8, $4
DATA walkIdx<>+0x090(SB)/8, $7
DATA walkIdx<>+0x098(SB)/8, $10
DATA walkIdx<>+0x0a0(SB)/8, $13
DATA walkIdx<>+0x0a8(SB)/8, $0
DATA walkIdx<>+0x0b0(SB)/8, $0
DATA walkIdx<>+0x0b8(SB)/8, $0
DATA walkIdx<>+0x0c0(SB)/8, $0
DATA walkIdx<>+0x0c8(SB)/8, $1
DATA walkIdx<>+0x0d0(SB)/8, $2
DATA walkIdx<>+0x0d8(SB)/8, $3
DATA walkIdx<>+0x0e0(SB)/8, $4
DATA walkIdx<>+0x0e8(SB)/8, $8
DATA walkIdx<>+0x0f0(SB)/8, $11
DATA walkIdx<>+0x0f8(SB)/8, $14
DATA walkIdx<>+0x100(SB)/8, $0 // wall times: quadwords 0, 3, ..., 21
DATA walkIdx<>+0x108(SB)/8, $3
DATA walkIdx<>+0x110(SB)/8, $6
DATA walkIdx<>+0x118(SB)/8, $9
DATA walkIdx<>+0x120(SB)/8, $12
DATA walkIdx<>+0x128(SB)/8, $15
DATA walkIdx<>+0x130(SB)/8, $0
DATA walkIdx<>+0x138(SB)/8, $0
DATA walkIdx<>+0x140(SB)/8, $0
DATA walkIdx<>+0x148(SB)/8, $1
DATA walkIdx<>+0x150(SB)/8, $2
DATA walkIdx<>+0x158(SB)/8, $3
DATA walkIdx<>+0x160(SB)/8, $4
DATA walkIdx<>+0x168(SB)/8, $5
DATA walkIdx<>+0x170(SB)/8, $10
DATA walkIdx<>+0x178(SB)/8, $13
GLOBL walkIdx<>(SB), RODATA|NOPTR, $0x180

// func walk8AVX512(pts []model.Point, out, walls []float64, maxStep int64) (vmin, vmax float64, stepMax int64, unsorted, nonFinite bool)
//
// Registers: SI the points, DI out, R8 walls (0: none), CX the groups of
// 8 left; Z16-Z21 the permutations; Z10/Z11 each lane's smallest and
// largest value, Z13 its largest step, Z12 the last group's steps; K2 the
// lanes that met a non-finite value, K4 those whose step was below the
// one before it.
TEXT ·walk8AVX512(SB), NOSPLIT, $0-106
	MOVQ pts_base+0(FP), SI
	MOVQ pts_len+8(FP), CX
	MOVQ out_base+24(FP), DI
	MOVQ walls_base+48(FP), R8
	MOVQ walls_len+56(FP), AX
	TESTQ AX, AX
	JNZ  haveWalls
	XORQ R8, R8

haveWalls:
	MOVQ maxStep+72(FP), AX
	VPBROADCASTQ AX, Z12 // "the step before" the first point: the largest before the bucket
	VPBROADCASTQ AX, Z13
	MOVQ $0x7ff0000000000000, AX // +Inf
	VPBROADCASTQ AX, Z10
	MOVQ $0xfff0000000000000, AX // -Inf
	VPBROADCASTQ AX, Z11
	KXORW K2, K2, K2
	KXORW K4, K4, K4
	VMOVDQU64 walkIdx<>+0x000(SB), Z16
	VMOVDQU64 walkIdx<>+0x040(SB), Z17
	VMOVDQU64 walkIdx<>+0x080(SB), Z18
	VMOVDQU64 walkIdx<>+0x0c0(SB), Z19
	VMOVDQU64 walkIdx<>+0x100(SB), Z20
	VMOVDQU64 walkIdx<>+0x140(SB), Z21
	SHRQ $3, CX
	JZ   reduce

loop:
	// The points 2 KB ahead (some 85): a series is read from the shared
	// cache or memory, and the hardware's stream prefetcher starts over
	// at each 4 KB page. 10-20% off BenchmarkWalk/p8m; a prefetch past
	// the points' end does not fault.
	PREFETCHT0 2048(SI)
	PREFETCHT0 2112(SI)
	PREFETCHT0 2176(SI)
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z1
	VMOVDQU64 128(SI), Z2

	// The values: stored, their extremes, whether any is NaN or infinite
	// (class bits: quiet NaN, +Inf, -Inf, signalling NaN).
	VMOVDQA64   Z16, Z3
	VPERMI2Q    Z1, Z0, Z3
	VPERMT2Q    Z2, Z17, Z3
	VMOVUPD     Z3, (DI)
	VMINPD      Z3, Z10, Z10
	VMAXPD      Z3, Z11, Z11
	VFPCLASSPDZ $0x99, Z3, K1
	KORW        K1, K2, K2

	// The steps: each below the one before it (the last group's last
	// for the first lane) is a step below the largest before it.
	VMOVDQA64 Z18, Z4
	VPERMI2Q  Z1, Z0, Z4
	VPERMT2Q  Z2, Z19, Z4
	VALIGNQ   $7, Z12, Z4, Z5
	VPCMPQ    $1, Z5, Z4, K3 // Z4 < Z5
	KORW      K3, K4, K4
	VPMAXSQ   Z4, Z13, Z13
	VMOVDQA64 Z4, Z12

	TESTQ R8, R8
	JZ    next
	VMOVDQA64 Z20, Z6
	VPERMI2Q  Z1, Z0, Z6
	VPERMT2Q  Z2, Z21, Z6
	VMOVUPD   Z6, (R8)
	ADDQ      $64, R8

next:
	ADDQ $192, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop

reduce:
	// Across the lanes: halves, quarters, then pairs.
	VSHUFF64X2 $0x4e, Z10, Z10, Z0
	VMINPD     Z0, Z10, Z10
	VSHUFF64X2 $0xb1, Z10, Z10, Z0
	VMINPD     Z0, Z10, Z10
	VPERMILPD  $1, X10, X0
	VMINPD     X0, X10, X10
	VMOVSD     X10, vmin+80(FP)

	VSHUFF64X2 $0x4e, Z11, Z11, Z0
	VMAXPD     Z0, Z11, Z11
	VSHUFF64X2 $0xb1, Z11, Z11, Z0
	VMAXPD     Z0, Z11, Z11
	VPERMILPD  $1, X11, X0
	VMAXPD     X0, X11, X11
	VMOVSD     X11, vmax+88(FP)

	VSHUFI64X2 $0x4e, Z13, Z13, Z0
	VPMAXSQ    Z0, Z13, Z13
	VSHUFI64X2 $0xb1, Z13, Z13, Z0
	VPMAXSQ    Z0, Z13, Z13
	VPSHUFD    $0x4e, Z13, Z0
	VPMAXSQ    Z0, Z13, Z13
	VMOVQ      X13, AX
	MOVQ       AX, stepMax+96(FP)

	KORTESTW K4, K4
	SETNE    unsorted+104(FP)
	KORTESTW K2, K2
	SETNE    nonFinite+105(FP)
	VZEROUPPER
	RET

// func extremesAVX512(out []float64, vmin, vmax float64) (imin, imax int)
//
// The first offsets of vmin and vmax in out (len(out) >= 8), 8 values a
// turn, by equality (ordered, quiet: -0 is 0). The last turn takes out's
// last 8 values, which may overlap the turn before: the values passed
// were not equal, so the first equal one is still the first. A value not
// in out gives an offset past its end.
TEXT ·extremesAVX512(SB), NOSPLIT, $0-56
	MOVQ         out_base+0(FP), SI
	MOVQ         out_len+8(FP), R9
	SUBQ         $8, R9 // the last turn's offset
	VBROADCASTSD vmin+24(FP), Z1
	VBROADCASTSD vmax+32(FP), Z2

	XORQ AX, AX
minLoop:
	CMPQ     AX, R9
	JGE      minLast
	VCMPPD   $0, (SI)(AX*8), Z1, K1
	KORTESTW K1, K1
	JNZ      minFound
	ADDQ     $8, AX
	JMP      minLoop
minLast:
	MOVQ   R9, AX
	VCMPPD $0, (SI)(AX*8), Z1, K1
minFound:
	KMOVW  K1, CX
	TZCNTL CX, CX // 32 for none
	ADDQ   CX, AX
	MOVQ   AX, imin+40(FP)

	XORQ AX, AX
maxLoop:
	CMPQ     AX, R9
	JGE      maxLast
	VCMPPD   $0, (SI)(AX*8), Z2, K1
	KORTESTW K1, K1
	JNZ      maxFound
	ADDQ     $8, AX
	JMP      maxLoop
maxLast:
	MOVQ   R9, AX
	VCMPPD $0, (SI)(AX*8), Z2, K1
maxFound:
	KMOVW  K1, CX
	TZCNTL CX, CX
	ADDQ   CX, AX
	MOVQ   AX, imax+48(FP)
	VZEROUPPER
	RET
