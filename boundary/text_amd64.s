//go:build amd64 && !purego

#include "textflag.h"

// Only VEX-encoded instructions touch the vector registers: a legacy SSE
// instruction while the upper halves of the Y registers are in use costs a
// state transition on many x86 CPUs.
//
// As signed bytes, the ASCII bytes other than NUL are exactly those greater
// than zero, so one signed comparison finds both NUL and non-ASCII bytes,
// and the signed minimum of two blocks is greater than zero only when both
// are plain.

// func plainPrefixAVX2(p []byte) int
TEXT ·plainPrefixAVX2(SB), NOSPLIT, $0-32
	MOVQ p_base+0(FP), SI
	MOVQ p_len+8(FP), BX
	ANDQ $~31, BX            // BX: bytes in whole 32-byte blocks
	XORQ CX, CX
	VPXOR Y0, Y0, Y0

loop64:
	LEAQ 64(CX), AX
	CMPQ AX, BX
	JGT  last32
	VMOVDQU (SI)(CX*1), Y1
	VMOVDQU 32(SI)(CX*1), Y2
	VPMINSB  Y1, Y2, Y3
	VPCMPGTB Y0, Y3, Y3      // 0xff where the bytes of both blocks are plain
	VPMOVMSKB Y3, AX
	CMPL     AX, $0xffffffff
	JNE      found64
	ADDQ     $64, CX
	JMP      loop64

found64:
	VPCMPGTB  Y0, Y1, Y1
	VPCMPGTB  Y0, Y2, Y2
	VPMOVMSKB Y1, AX
	VPMOVMSKB Y2, DX
	SHLQ      $32, DX
	ORQ       DX, AX         // a bit per byte of the 64, set where plain
	NOTQ      AX
	BSFQ      AX, AX
	ADDQ      CX, AX
	VZEROUPPER
	MOVQ      AX, ret+24(FP)
	RET

last32:
	CMPQ CX, BX
	JGE  none
	VMOVDQU   (SI)(CX*1), Y1
	VPCMPGTB  Y0, Y1, Y1
	VPMOVMSKB Y1, AX
	NOTL      AX
	TESTL     AX, AX
	JZ        plain32
	BSFL      AX, AX
	ADDQ      CX, AX
	VZEROUPPER
	MOVQ      AX, ret+24(FP)
	RET

plain32:
	ADDQ $32, CX

none:
	VZEROUPPER
	MOVQ CX, ret+24(FP)
	RET
