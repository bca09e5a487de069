; A broken VS for the fault test (wave64). A wave whose first VertexID is
; below s4 (SPI_SHADER_USER_DATA_VS_4) exports position and PARAM0 as
; small.vs.ll does; the others export no position: PARAM0 alone when s5 is
; non-zero, else nothing. On hardware a VS must export position (exp pos0
; ... done); xs12 removes the device when a VS wave ends without it.
define amdgpu_vs void @main(i32 inreg %s0, i32 inreg %s1, i32 inreg %s2, i32 inreg %s3, i32 inreg %s4,
                            i32 inreg %s5, i32 %vid, i32 %v1, i32 %v2, i32 %inst) {
  %first = call i32 @llvm.amdgcn.readfirstlane(i32 %vid)
  %good = icmp ult i32 %first, %s4
  br i1 %good, label %pos, label %nopos
pos:
  %k = urem i32 %vid, 3
  %is0 = icmp eq i32 %k, 0
  %is1 = icmp eq i32 %k, 1
  %is2 = icmp eq i32 %k, 2
  %x = select i1 %is1, float -0.75, float -1.0
  %y = select i1 %is2, float 0.75, float 1.0
  %r = select i1 %is0, float 1.0, float 0.0
  %g = select i1 %is1, float 1.0, float 0.0
  %b = select i1 %is2, float 1.0, float 0.0
  call void @llvm.amdgcn.exp.f32(i32 12, i32 15, float %x, float %y, float 0.5, float 1.0, i1 true, i1 false)
  call void @llvm.amdgcn.exp.f32(i32 32, i32 15, float %r, float %g, float %b, float 1.0, i1 false, i1 false)
  br label %end
nopos:
  %p = icmp ne i32 %s5, 0
  br i1 %p, label %param, label %end
param:
  %f = uitofp i32 %vid to float
  call void @llvm.amdgcn.exp.f32(i32 32, i32 15, float %f, float 0.0, float 0.0, float 1.0, i1 false, i1 false)
  br label %end
end:
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
declare i32 @llvm.amdgcn.readfirstlane(i32)
