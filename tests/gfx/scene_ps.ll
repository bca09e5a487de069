; The scene's pixel shader (docs/graphics.md section 1, PAL ABI): writes
; attribute 0 interpolated at the pixel centre (PERSP_CENTER i, j) to
; mrt0. User SGPRs: s[0:1] ring table, s[2:3] root table, then PRIM_MASK.
target triple = "amdgcn--amdpal"

define amdgpu_ps void @ps(i32 inreg %ring_lo, i32 inreg %ring_hi, i32 inreg %root_lo, i32 inreg %root_hi,
                          i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center) #0 {
  %i = extractelement <2 x float> %persp_center, i32 0
  %j = extractelement <2 x float> %persp_center, i32 1
  %r1 = call float @llvm.amdgcn.interp.p1(float %i, i32 0, i32 0, i32 %prim_mask)
  %r = call float @llvm.amdgcn.interp.p2(float %r1, float %j, i32 0, i32 0, i32 %prim_mask)
  %g1 = call float @llvm.amdgcn.interp.p1(float %i, i32 1, i32 0, i32 %prim_mask)
  %g = call float @llvm.amdgcn.interp.p2(float %g1, float %j, i32 1, i32 0, i32 %prim_mask)
  %b1 = call float @llvm.amdgcn.interp.p1(float %i, i32 2, i32 0, i32 %prim_mask)
  %b = call float @llvm.amdgcn.interp.p2(float %b1, float %j, i32 2, i32 0, i32 %prim_mask)
  %a1 = call float @llvm.amdgcn.interp.p1(float %i, i32 3, i32 0, i32 %prim_mask)
  %a = call float @llvm.amdgcn.interp.p2(float %a1, float %j, i32 3, i32 0, i32 %prim_mask)
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %r, float %g, float %b, float %a, i1 true, i1 true)
  ret void
}

declare float @llvm.amdgcn.interp.p1(float, i32, i32, i32)
declare float @llvm.amdgcn.interp.p2(float, float, i32, i32, i32)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)

attributes #0 = { "InitialPSInputAddr"="0" }
