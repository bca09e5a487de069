; A VS that fetches a position with a typed load and exports it and a colour.
define amdgpu_vs void @vs(<4 x i32> inreg %vbuf, i32 %vid) {
  %p = call <4 x float> @llvm.amdgcn.struct.buffer.load.format.v4f32(<4 x i32> %vbuf, i32 %vid, i32 0, i32 0, i32 0)
  %x = extractelement <4 x float> %p, i32 0
  %y = extractelement <4 x float> %p, i32 1
  %z = extractelement <4 x float> %p, i32 2
  %w = extractelement <4 x float> %p, i32 3
  call void @llvm.amdgcn.exp.f32(i32 32, i32 15, float %x, float %y, float 0.5, float 1.0, i1 false, i1 false)
  call void @llvm.amdgcn.exp.f32(i32 12, i32 15, float %x, float %y, float %z, float %w, i1 true, i1 false)
  ret void
}
declare <4 x float> @llvm.amdgcn.struct.buffer.load.format.v4f32(<4 x i32>, i32, i32, i32, i32)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
