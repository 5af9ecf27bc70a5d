//go:build !purego

#include "textflag.h"

// func dotsInt8AVX2(q *float32, codes *int8, scale *float32, out *float32, rows int, stride int)
//
// out[r] = scale[r] * Σ_j q[j]·codes[r·stride+j] for r in [0, rows);
// stride is a positive multiple of 16 and q holds stride values. Each row's
// codes are widened to int32 and converted to float32 eight at a time, then
// multiplied into two 8-lane accumulators with FMA.
TEXT ·dotsInt8AVX2(SB), NOSPLIT, $0-48
	MOVQ q+0(FP), AX
	MOVQ codes+8(FP), SI
	MOVQ scale+16(FP), BX
	MOVQ out+24(FP), DI
	MOVQ rows+32(FP), CX
	MOVQ stride+40(FP), DX
	TESTQ CX, CX
	JEQ  done

row:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	XORQ R8, R8
	MOVQ AX, R9

inner:
	VPMOVSXBD (SI)(R8*1), Y2
	VPMOVSXBD 8(SI)(R8*1), Y3
	VCVTDQ2PS Y2, Y2
	VCVTDQ2PS Y3, Y3
	VFMADD231PS (R9), Y2, Y0
	VFMADD231PS 32(R9), Y3, Y1
	ADDQ $64, R9
	ADDQ $16, R8
	CMPQ R8, DX
	JLT  inner

	VADDPS       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0
	VMULSS       (BX), X0, X0
	VMOVSS       X0, (DI)
	ADDQ         DX, SI
	ADDQ         $4, BX
	ADDQ         $4, DI
	DECQ         CX
	JNZ          row

done:
	VZEROUPPER
	RET
