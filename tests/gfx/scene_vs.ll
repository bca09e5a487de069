; The scene's vertex shader (docs/graphics.md section 1, PAL ABI): passes
; element 0 (POSITION, clip space) to pos0 and element 1 (COLOR) to
; param0. User SGPRs: s[0:1] ring table, s[2:3] vertex table (32-byte
; entries, the V# first), s[4:5] root table; v0 VertexID.
target triple = "amdgcn--amdpal"

define amdgpu_vs void @vs(i32 inreg %ring_lo, i32 inreg %ring_hi, i32 inreg %vt_lo, i32 inreg %vt_hi,
                          i32 inreg %root_lo, i32 inreg %root_hi, i32 %vertex_id) {
  %lo = zext i32 %vt_lo to i64
  %hi = zext i32 %vt_hi to i64
  %hi_s = shl i64 %hi, 32
  %addr = or i64 %hi_s, %lo
  %vt = inttoptr i64 %addr to ptr addrspace(4)
  %pos_vd = load <4 x i32>, ptr addrspace(4) %vt, align 16, !invariant.load !0
  %col_e = getelementptr i8, ptr addrspace(4) %vt, i64 32
  %col_vd = load <4 x i32>, ptr addrspace(4) %col_e, align 16, !invariant.load !0
  %pos = call <4 x float> @llvm.amdgcn.struct.buffer.load.format.v4f32(<4 x i32> %pos_vd, i32 %vertex_id, i32 0, i32 0, i32 0)
  %col = call <4 x float> @llvm.amdgcn.struct.buffer.load.format.v4f32(<4 x i32> %col_vd, i32 %vertex_id, i32 0, i32 0, i32 0)
  %px = extractelement <4 x float> %pos, i32 0
  %py = extractelement <4 x float> %pos, i32 1
  %pz = extractelement <4 x float> %pos, i32 2
  %pw = extractelement <4 x float> %pos, i32 3
  %cr = extractelement <4 x float> %col, i32 0
  %cg = extractelement <4 x float> %col, i32 1
  %cb = extractelement <4 x float> %col, i32 2
  %ca = extractelement <4 x float> %col, i32 3
  call void @llvm.amdgcn.exp.f32(i32 32, i32 15, float %cr, float %cg, float %cb, float %ca, i1 false, i1 false)
  call void @llvm.amdgcn.exp.f32(i32 12, i32 15, float %px, float %py, float %pz, float %pw, i1 true, i1 false)
  ret void
}

declare <4 x float> @llvm.amdgcn.struct.buffer.load.format.v4f32(<4 x i32>, i32, i32, i32, i32)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)

!0 = !{}
