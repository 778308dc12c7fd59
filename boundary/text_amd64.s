//go:build amd64 && !purego

#include "textflag.h"

// Only VEX-encoded instructions touch the vector registers: a legacy SSE
// instruction while the upper halves of the Y registers are in use costs a
// state transition on many x86 CPUs. The scalar checks use general
// registers only.
//
// As signed bytes, the ASCII bytes other than NUL are exactly those greater
// than zero, so one signed comparison finds both NUL and non-ASCII bytes,
// and the signed minimum of two blocks is greater than zero only when both
// are plain.

// func textPrefixAVX2(p []byte) int
TEXT ·textPrefixAVX2(SB), NOSPLIT, $0-32
	MOVQ p_base+0(FP), SI
	MOVQ p_len+8(FP), BX
	XORQ CX, CX              // CX: bytes of p known to be text
	VPXOR Y0, Y0, Y0

loop64:
	LEAQ 64(CX), AX
	CMPQ AX, BX
	JGT  try32
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
	ADDQ      AX, CX
	JMP       multi

try32:
	LEAQ 32(CX), AX
	CMPQ AX, BX
	JGT  tail
	VMOVDQU   (SI)(CX*1), Y1
	VPCMPGTB  Y0, Y1, Y1
	VPMOVMSKB Y1, AX
	NOTL      AX
	TESTL     AX, AX
	JZ        plain32
	BSFL      AX, AX
	ADDQ      AX, CX
	JMP       multi

plain32:
	ADDQ $32, CX

tail: // fewer than 32 bytes are left: one at a time
	CMPQ    CX, BX
	JGE     done
	MOVBLZX (SI)(CX*1), DX
	LEAL    -1(DX), AX       // NUL wraps to 0xffffffff
	CMPL    AX, $0x7f
	JAE     lead
	INCQ    CX
	JMP     tail

multi: // the byte at CX is not plain
	MOVBLZX (SI)(CX*1), DX

lead: // DX is the byte at CX, which is not plain
	CMPL DX, $0xc2
	JB   done                // NUL, a continuation byte, or an overlong lead
	CMPL DX, $0xe0
	JAE  three
	// C2..DF, then 80..BF.
	LEAQ    2(CX), AX
	CMPQ    AX, BX
	JGT     done
	MOVBLZX 1(SI)(CX*1), R8
	XORL    $0x80, R8
	CMPL    R8, $0x40
	JAE     done
	MOVQ    AX, CX
	JMP     next

three:
	CMPL DX, $0xf0
	JAE  done                // four-byte and invalid leads: left to the caller
	LEAQ 3(CX), AX
	CMPQ AX, BX
	JGT  done
	// The second byte is 80..BF, but A0..BF after E0 (no overlong form)
	// and 80..9F after ED (no surrogate); the third is 80..BF.
	MOVL $0x80, R9
	MOVL $0xbf, R10
	CMPL DX, $0xe0
	JNE  notE0
	MOVL $0xa0, R9

notE0:
	CMPL DX, $0xed
	JNE  notED
	MOVL $0x9f, R10

notED:
	MOVBLZX 1(SI)(CX*1), R8
	CMPL    R8, R9
	JB      done
	CMPL    R8, R10
	JA      done
	MOVBLZX 2(SI)(CX*1), R8
	XORL    $0x80, R8
	CMPL    R8, $0x40
	JAE     done
	MOVQ    AX, CX

next: // after a sequence: text written in a script other than Latin, or in
	// combining marks, is sequence after sequence, each checked here without
	// going back to a vector load that would find it at once
	CMPQ    CX, BX
	JGE     done
	MOVBLZX (SI)(CX*1), DX
	LEAL    -1(DX), AX       // NUL wraps to 0xffffffff
	CMPL    AX, $0x7f
	JAE     lead
	JMP     loop64

done:
	VZEROUPPER
	MOVQ CX, ret+24(FP)
	RET
