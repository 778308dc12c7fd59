//go:build amd64 && !purego

#include "textflag.h"

// func indexPairAVX2(s []byte, c0, m0, c1, m1 byte) int
TEXT ·indexPairAVX2(SB), NOSPLIT, $0-40
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), BX
	DECQ BX                  // BX: positions i with i+1 < len(s)
	JLE  notfound
	MOVBLZX c0+24(FP), AX
	MOVQ AX, X0
	VPBROADCASTB X0, Y0
	MOVBLZX m0+25(FP), AX
	MOVQ AX, X1
	VPBROADCASTB X1, Y1
	MOVBLZX c1+26(FP), AX
	MOVQ AX, X2
	VPBROADCASTB X2, Y2
	MOVBLZX m1+27(FP), AX
	MOVQ AX, X3
	VPBROADCASTB X3, Y3
	LEAQ 1(SI), DI
	XORQ CX, CX

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

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET
