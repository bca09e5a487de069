; VS for the S4.2 test: every triangle is its own three vertices
; (VertexID 3k..3k+2) covering one 2x2 quad at the top-left of a 16x16
; target: (0,0) (2,0) (0,2) in pixels. PARAM0 as tri.vs.ll. The SPI
; allocates the VGPRs the register asks for (the test asks for 256), not
; the few this code uses.
define amdgpu_vs void @main(i32 inreg %s0, i32 inreg %s1, i32 inreg %s2, i32 inreg %s3, i32 inreg %s4,
                            i32 inreg %s5, i32 %vid, i32 %v1, i32 %v2, i32 %inst) {
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
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
