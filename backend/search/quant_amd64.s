//go:build !purego

#include "textflag.h"

// func dotsInt8AVX2(q *float32, codes *int8, scale *float32, out *float32, rows int, stride int)
//
// out[r] = scale[r] * Σ_j q[j]·codes[r·stride+j] for r in [0, rows);
// stride is a positive multiple of 16 and q holds stride values. Codes are
// widened to int32 and converted to float32 eight at a time, then
// multiplied into 8-lane accumulators with FMA. Rows go four at a time
// (one accumulator each, the query loaded once for the four, the four
// horizontal sums done together), then one at a time.
TEXT ·dotsInt8AVX2(SB), NOSPLIT, $0-48
	MOVQ q+0(FP), AX
	MOVQ codes+8(FP), SI
	MOVQ scale+16(FP), BX
	MOVQ out+24(FP), DI
	MOVQ rows+32(FP), CX
	MOVQ stride+40(FP), DX

four:
	CMPQ CX, $4
	JLT  one
	LEAQ (SI)(DX*1), R10
	LEAQ (R10)(DX*1), R11
	LEAQ (R11)(DX*1), R12
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORQ R8, R8
	MOVQ AX, R9

fourInner:
	VMOVUPS   (R9), Y8
	VMOVUPS   32(R9), Y9
	VPMOVSXBD (SI)(R8*1), Y10
	VPMOVSXBD 8(SI)(R8*1), Y11
	VCVTDQ2PS Y10, Y10
	VCVTDQ2PS Y11, Y11
	VFMADD231PS Y8, Y10, Y0
	VFMADD231PS Y9, Y11, Y0
	VPMOVSXBD (R10)(R8*1), Y12
	VPMOVSXBD 8(R10)(R8*1), Y13
	VCVTDQ2PS Y12, Y12
	VCVTDQ2PS Y13, Y13
	VFMADD231PS Y8, Y12, Y1
	VFMADD231PS Y9, Y13, Y1
	VPMOVSXBD (R11)(R8*1), Y10
	VPMOVSXBD 8(R11)(R8*1), Y11
	VCVTDQ2PS Y10, Y10
	VCVTDQ2PS Y11, Y11
	VFMADD231PS Y8, Y10, Y2
	VFMADD231PS Y9, Y11, Y2
	VPMOVSXBD (R12)(R8*1), Y12
	VPMOVSXBD 8(R12)(R8*1), Y13
	VCVTDQ2PS Y12, Y12
	VCVTDQ2PS Y13, Y13
	VFMADD231PS Y8, Y12, Y3
	VFMADD231PS Y9, Y13, Y3
	ADDQ $64, R9
	ADDQ $16, R8
	CMPQ R8, DX
	JLT  fourInner

	VHADDPS      Y1, Y0, Y4
	VHADDPS      Y3, Y2, Y5
	VHADDPS      Y5, Y4, Y6
	VEXTRACTF128 $1, Y6, X7
	VADDPS       X7, X6, X6
	VMULPS       (BX), X6, X6
	VMOVUPS      X6, (DI)
	LEAQ         (R12)(DX*1), SI
	ADDQ         $16, BX
	ADDQ         $16, DI
	SUBQ         $4, CX
	JMP          four

one:
	TESTQ CX, CX
	JEQ   done
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	XORQ R8, R8
	MOVQ AX, R9

oneInner:
	VPMOVSXBD (SI)(R8*1), Y2
	VPMOVSXBD 8(SI)(R8*1), Y3
	VCVTDQ2PS Y2, Y2
	VCVTDQ2PS Y3, Y3
	VFMADD231PS (R9), Y2, Y0
	VFMADD231PS 32(R9), Y3, Y1
	ADDQ $64, R9
	ADDQ $16, R8
	CMPQ R8, DX
	JLT  oneInner

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
	JMP          one

done:
	VZEROUPPER
	RET
