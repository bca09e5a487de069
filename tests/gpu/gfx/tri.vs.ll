; VS for the wave tests: a triangle from VertexID alone (no vertex buffer):
; vertex 0 at (-1,-1), 1 at (3,-1), 2 at (-1,3) in clip space, w = 1;
; PARAM0 = (vertex == 0, vertex == 1, vertex == 2, 1): the barycentrics.
; User SGPRs s0..s5 as the xs12 ABI lays them out (docs/graphics.md 1.1), unused.
define amdgpu_vs void @main(i32 inreg %s0, i32 inreg %s1, i32 inreg %s2, i32 inreg %s3, i32 inreg %s4,
                            i32 inreg %s5, i32 %vid, i32 %v1, i32 %v2, i32 %inst) {
  %k = urem i32 %vid, 3
  %is0 = icmp eq i32 %k, 0
  %is1 = icmp eq i32 %k, 1
  %is2 = icmp eq i32 %k, 2
  %x = select i1 %is1, float 3.0, float -1.0
  %y = select i1 %is2, float 3.0, float -1.0
  %r = select i1 %is0, float 1.0, float 0.0
  %g = select i1 %is1, float 1.0, float 0.0
  %b = select i1 %is2, float 1.0, float 0.0
  call void @llvm.amdgcn.exp.f32(i32 12, i32 15, float %x, float %y, float 0.5, float 1.0, i1 true, i1 false)
  call void @llvm.amdgcn.exp.f32(i32 32, i32 15, float %r, float %g, float %b, float 1.0, i1 false, i1 false)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
