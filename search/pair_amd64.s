//go:build amd64 && !purego

#include "textflag.h"

// func indexPairAVX2(s []byte, c0, m0, c1, m1 byte) int
TEXT ·indexPairAVX2(SB), NOSPLIT, $0-40
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), BX
	DECQ BX                  // BX: positions i with i+1 < len(s)
	JLE  notfound
	// Broadcast from memory: a VEX-encoded load, so that no legacy SSE
	// instruction runs while the upper halves of the Y registers are in
	// use, which costs a state transition on many x86 CPUs.
	VPBROADCASTB c0+24(FP), Y0
	VPBROADCASTB m0+25(FP), Y1
	VPBROADCASTB c1+26(FP), Y2
	VPBROADCASTB m1+27(FP), Y3
	LEAQ 1(SI), DI
	XORQ CX, CX

loop64: // 64 positions at a time while they all have a next byte
	LEAQ 64(CX), AX
	CMPQ AX, BX
	JGT  loop
	VMOVDQU (SI)(CX*1), Y4
	VMOVDQU (DI)(CX*1), Y5
	VMOVDQU 32(SI)(CX*1), Y6
	VMOVDQU 32(DI)(CX*1), Y7
	VPOR    Y1, Y4, Y4
	VPOR    Y3, Y5, Y5
	VPOR    Y1, Y6, Y6
	VPOR    Y3, Y7, Y7
	VPCMPEQB Y0, Y4, Y4
	VPCMPEQB Y2, Y5, Y5
	VPCMPEQB Y0, Y6, Y6
	VPCMPEQB Y2, Y7, Y7
	VPAND   Y4, Y5, Y5
	VPAND   Y6, Y7, Y7
	VPOR    Y5, Y7, Y8
	VPMOVMSKB Y8, AX
	TESTL   AX, AX
	JNZ     found64
	ADDQ    $64, CX
	JMP     loop64

found64:
	VPMOVMSKB Y5, AX
	VPMOVMSKB Y7, DX
	SHLQ    $32, DX
	ORQ     DX, AX
	BSFQ    AX, AX
	ADDQ    CX, AX
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET

loop:
	LEAQ 32(CX), AX
	CMPQ AX, BX
	JGT  done
	VMOVDQU (SI)(CX*1), Y4
	VMOVDQU (DI)(CX*1), Y5
	VPOR    Y1, Y4, Y4
	VPOR    Y3, Y5, Y5
	VPCMPEQB Y0, Y4, Y4
	VPCMPEQB Y2, Y5, Y5
	VPAND   Y4, Y5, Y5
	VPMOVMSKB Y5, AX
	TESTL   AX, AX
	JNZ     found
	ADDQ    $32, CX
	JMP     loop

found:
	BSFL AX, AX
	ADDQ CX, AX
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET

done:
	VZEROUPPER

notfound:
	MOVQ $-1, ret+32(FP)
	RET
