; A VS that reads eight user SGPRs (s0..s7): two more than the xs12 ABI
; gives a VS (docs/graphics.md 1.1), so CreateGraphicsPipelineState
; refuses it (GFX_PSO_ABI).
define amdgpu_vs void @vs(i32 inreg %a, i32 inreg %b, i32 inreg %c, i32 inreg %d, i32 inreg %e, i32 inreg %f,
                          i32 inreg %g, i32 inreg %h) {
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %d
  %s4 = add i32 %s3, %e
  %s5 = add i32 %s4, %f
  %s6 = add i32 %s5, %g
  %s7 = add i32 %s6, %h
  %v = bitcast i32 %s7 to float
  call void @llvm.amdgcn.exp.f32(i32 12, i32 15, float %v, float %v, float %v, float 1.0, i1 true, i1 false)
  ret void
}

declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
