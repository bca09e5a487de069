; PS for the late-Z tests: tri.ps's colour, but a lane whose attribute-0 red
; is at most 16.5/32 discards (llvm.amdgcn.kill, what HLSL's discard/clip
; becomes). With tri.vs red = (16 + y - x) / 32 at pixel centres, so the
; pixels with y > x survive (no centre lies on the threshold).
define amdgpu_ps void @main(i32 inreg %s0, i32 inreg %s1, i32 inreg %s2, i32 inreg %s3, i32 inreg %prim,
                            <2 x float> %sample, <2 x float> %center) {
  %i = extractelement <2 x float> %center, i32 0
  %j = extractelement <2 x float> %center, i32 1
  %r1 = call float @llvm.amdgcn.interp.p1(float %i, i32 0, i32 0, i32 %prim)
  %r = call float @llvm.amdgcn.interp.p2(float %r1, float %j, i32 0, i32 0, i32 %prim)
  %g1 = call float @llvm.amdgcn.interp.p1(float %i, i32 1, i32 0, i32 %prim)
  %g = call float @llvm.amdgcn.interp.p2(float %g1, float %j, i32 1, i32 0, i32 %prim)
  %b1 = call float @llvm.amdgcn.interp.p1(float %i, i32 2, i32 0, i32 %prim)
  %b = call float @llvm.amdgcn.interp.p2(float %b1, float %j, i32 2, i32 0, i32 %prim)
  %keep = fcmp ogt float %r, 0.515625
  call void @llvm.amdgcn.kill(i1 %keep)
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %r, float %g, float %b, float 1.0, i1 true, i1 true)
  ret void
}
declare float @llvm.amdgcn.interp.p1(float, i32, i32, i32)
declare float @llvm.amdgcn.interp.p2(float, float, i32, i32, i32)
declare void @llvm.amdgcn.kill(i1)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
