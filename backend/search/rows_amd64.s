//go:build !purego

#include "textflag.h"

// func dotRowsAVX2(q *float32, base *float32, slots *int32, out *float32, n int, dim int)
//
// out[i] = Σ_j q[j]·base[slots[i]·dim+j] for i in [0, n); dim is a
// positive multiple of 32. Each row is read with four 8-lane FMA
// accumulators while the next row is prefetched, two cache lines per
// 32 values, so that scattered rows arrive at the speed of a stream.
TEXT ·dotRowsAVX2(SB), NOSPLIT, $0-48
	MOVQ q+0(FP), AX
	MOVQ base+8(FP), SI
	MOVQ slots+16(FP), BX
	MOVQ out+24(FP), DI
	MOVQ n+32(FP), CX
	MOVQ dim+40(FP), DX
	SHLQ $2, DX               // row bytes
	TESTQ CX, CX
	JEQ  done
	MOVLQSX (BX), R8
	IMULQ DX, R8
	ADDQ SI, R8               // R8: this row

row:
	MOVQ R8, R9               // R9: next row (this one again at the last)
	CMPQ CX, $1
	JEQ  noNext
	MOVLQSX 4(BX), R9
	IMULQ DX, R9
	ADDQ SI, R9

noNext:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORQ R10, R10             // byte offset in the row

inner:
	PREFETCHT0 (R9)(R10*1)
	PREFETCHT0 64(R9)(R10*1)
	VMOVUPS (AX)(R10*1), Y4
	VMOVUPS 32(AX)(R10*1), Y5
	VMOVUPS 64(AX)(R10*1), Y6
	VMOVUPS 96(AX)(R10*1), Y7
	VFMADD231PS (R8)(R10*1), Y4, Y0
	VFMADD231PS 32(R8)(R10*1), Y5, Y1
	VFMADD231PS 64(R8)(R10*1), Y6, Y2
	VFMADD231PS 96(R8)(R10*1), Y7, Y3
	ADDQ $128, R10
	CMPQ R10, DX
	JLT  inner

	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	MOVSS X0, (DI)
	ADDQ $4, DI
	ADDQ $4, BX
	MOVQ R9, R8
	DECQ CX
	JNZ  row

done:
	VZEROUPPER
	RET
