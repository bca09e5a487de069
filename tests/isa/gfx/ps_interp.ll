; A PS that interpolates attribute 0 and exports it, compressed and not.
define amdgpu_ps void @ps(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center) #0 {
  %i = extractelement <2 x float> %persp_center, i32 0
  %j = extractelement <2 x float> %persp_center, i32 1
  %r1 = call float @llvm.amdgcn.interp.p1(float %i, i32 0, i32 0, i32 %prim_mask)
  %r = call float @llvm.amdgcn.interp.p2(float %r1, float %j, i32 0, i32 0, i32 %prim_mask)
  %g1 = call float @llvm.amdgcn.interp.p1(float %i, i32 1, i32 0, i32 %prim_mask)
  %g = call float @llvm.amdgcn.interp.p2(float %g1, float %j, i32 1, i32 0, i32 %prim_mask)
  %b = call float @llvm.amdgcn.interp.mov(i32 2, i32 2, i32 0, i32 %prim_mask)
  %rg = call <2 x half> @llvm.amdgcn.cvt.pkrtz(float %r, float %g)
  %ba = call <2 x half> @llvm.amdgcn.cvt.pkrtz(float %b, float 1.0)
  call void @llvm.amdgcn.exp.compr.v2f16(i32 0, i32 15, <2 x half> %rg, <2 x half> %ba, i1 true, i1 true)
  ret void
}
attributes #0 = { "InitialPSInputAddr"="0" }
declare float @llvm.amdgcn.interp.p1(float, i32, i32, i32)
declare float @llvm.amdgcn.interp.p2(float, float, i32, i32, i32)
declare float @llvm.amdgcn.interp.mov(i32, i32, i32, i32)
declare <2 x half> @llvm.amdgcn.cvt.pkrtz(float, float)
declare void @llvm.amdgcn.exp.compr.v2f16(i32, i32, <2 x half>, <2 x half>, i1, i1)
