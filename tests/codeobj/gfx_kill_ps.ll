; A PS written directly in IR (what OpenCL C bodies cannot say): discard
; (llvm.amdgcn.kill -> EXEC write and an `exp null` tail), depth from the
; shader (exp mrtz) and a compressed f16 colour (exp ... compr). Inputs as
; in the xs12 ABI: root s[0:1]... here only PRIM_MASK matters.
define amdgpu_ps void @ps(i32 inreg %root.lo, i32 inreg %root.hi, i32 inreg %prim_mask,
                          <2 x float> %persp_sample, <2 x float> %persp_center) #0 {
  %i = extractelement <2 x float> %persp_center, i32 0
  %j = extractelement <2 x float> %persp_center, i32 1
  %p1 = call float @llvm.amdgcn.interp.p1(float %i, i32 0, i32 2, i32 %prim_mask)
  %r = call float @llvm.amdgcn.interp.p2(float %p1, float %j, i32 0, i32 2, i32 %prim_mask)
  %keep = fcmp olt float %r, 0.5
  call void @llvm.amdgcn.kill(i1 %keep)
  %rg = call <2 x half> @llvm.amdgcn.cvt.pkrtz(float %r, float %i)
  %ba = call <2 x half> @llvm.amdgcn.cvt.pkrtz(float %j, float 1.0)
  call void @llvm.amdgcn.exp.f32(i32 8, i32 1, float %r, float undef, float undef, float undef, i1 false, i1 false)
  call void @llvm.amdgcn.exp.compr.v2f16(i32 1, i32 15, <2 x half> %rg, <2 x half> %ba, i1 true, i1 true)
  ret void
}
declare float @llvm.amdgcn.interp.p1(float, i32, i32, i32)
declare float @llvm.amdgcn.interp.p2(float, float, i32, i32, i32)
declare void @llvm.amdgcn.kill(i1)
declare <2 x half> @llvm.amdgcn.cvt.pkrtz(float, float)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
declare void @llvm.amdgcn.exp.compr.v2f16(i32, i32, <2 x half>, <2 x half>, i1, i1)
attributes #0 = { "InitialPSInputAddr"="0" }
