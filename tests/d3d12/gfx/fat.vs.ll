; A wave64 VS that takes all 256 VGPRs (the clobber) and exports position
; and eight parameters: two of its waves fill a SIMD and one wave's
; 64 vertices x 8 parameters take half an SE's parameter cache. With VS and
; PS kept to three CUs per SA, S4.2's deadlock: late-alloc VS waves can fill
; every place a PS wave could take (docs/graphics.md section 3).
define amdgpu_vs void @vs(i32 inreg %ring_lo, i32 inreg %ring_hi, <4 x i32> addrspace(4)* inreg %vtx, i32 inreg %r0,
                          i32 inreg %r1, i32 %vertex_id) #0 {
  call void asm sideeffect "", "~{v255}"()
  %x = uitofp i32 %vertex_id to float
  ; a triangle over the lower-left half of the target per three vertices
  %k = urem i32 %vertex_id, 3
  %is2 = icmp eq i32 %k, 2
  %is1 = icmp eq i32 %k, 1
  %px = select i1 %is2, float 1.0, float -1.0
  %py = select i1 %is1, float 1.0, float -1.0
  call void @llvm.amdgcn.exp.f32(i32 12, i32 15, float %px, float %py, float 0.5, float 1.0, i1 true, i1 false)
  call void @llvm.amdgcn.exp.f32(i32 32, i32 15, float 1.0, float 0.0, float 0.0, float 1.0, i1 false, i1 false)
  call void @llvm.amdgcn.exp.f32(i32 33, i32 15, float %x, float %x, float %x, float %x, i1 false, i1 false)
  call void @llvm.amdgcn.exp.f32(i32 34, i32 15, float %x, float %x, float %x, float %x, i1 false, i1 false)
  call void @llvm.amdgcn.exp.f32(i32 35, i32 15, float %x, float %x, float %x, float %x, i1 false, i1 false)
  call void @llvm.amdgcn.exp.f32(i32 36, i32 15, float %x, float %x, float %x, float %x, i1 false, i1 false)
  call void @llvm.amdgcn.exp.f32(i32 37, i32 15, float %x, float %x, float %x, float %x, i1 false, i1 false)
  call void @llvm.amdgcn.exp.f32(i32 38, i32 15, float %x, float %x, float %x, float %x, i1 false, i1 false)
  call void @llvm.amdgcn.exp.f32(i32 39, i32 15, float %x, float %x, float %x, float %x, i1 false, i1 false)
  ret void
}

declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
attributes #0 = { "target-features"="+wavefrontsize64" }
