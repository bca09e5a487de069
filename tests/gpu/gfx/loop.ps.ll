; PS for the export-buffer test: exports MRT0 = (i, 1, 1, 1) for i = 0 .. n-1
; (n = user SGPR s0, at least one pass), then MRT0 = (100, 2, 3, 1) with done.
define amdgpu_ps void @main(i32 inreg %n, i32 inreg %s1, i32 inreg %s2, i32 inreg %s3, i32 inreg %prim,
                            <2 x float> %sample, <2 x float> %center) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %f = uitofp i32 %i to float
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %f, float 1.0, float 1.0, float 1.0, i1 false, i1 true)
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, %n
  br i1 %c, label %loop, label %done
done:
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float 100.0, float 2.0, float 3.0, float 1.0, i1 true, i1 true)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
