; A PS that discards lanes whose interpolated value is negative.
define amdgpu_ps void @ps(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center) #0 {
  %i = extractelement <2 x float> %persp_center, i32 0
  %j = extractelement <2 x float> %persp_center, i32 1
  %r1 = call float @llvm.amdgcn.interp.p1(float %i, i32 0, i32 0, i32 %prim_mask)
  %r = call float @llvm.amdgcn.interp.p2(float %r1, float %j, i32 0, i32 0, i32 %prim_mask)
  %keep = fcmp oge float %r, 0.0
  call void @llvm.amdgcn.kill(i1 %keep)
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %r, float %r, float %r, float 1.0, i1 true, i1 true)
  ret void
}
attributes #0 = { "InitialPSInputAddr"="0" }
declare float @llvm.amdgcn.interp.p1(float, i32, i32, i32)
declare float @llvm.amdgcn.interp.p2(float, float, i32, i32, i32)
declare void @llvm.amdgcn.kill(i1)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
