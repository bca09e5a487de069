; A VS whose dynamically indexed private array lives in scratch (PAL: GIT in s0).
define amdgpu_vs void @vs(i32 inreg %git_lo, <4 x i32> inreg %vbuf, i32 %vid) {
  %a = alloca [64 x float], align 4, addrspace(5)
  br label %fill
fill:
  %k = phi i32 [ 0, %0 ], [ %k1, %fill ]
  %f = uitofp i32 %k to float
  %pk = getelementptr [64 x float], ptr addrspace(5) %a, i32 0, i32 %k
  store float %f, ptr addrspace(5) %pk
  %k1 = add i32 %k, 1
  %c = icmp ult i32 %k1, 64
  br i1 %c, label %fill, label %done
done:
  %m = and i32 %vid, 63
  %pm = getelementptr [64 x float], ptr addrspace(5) %a, i32 0, i32 %m
  %v = load float, ptr addrspace(5) %pm
  call void @llvm.amdgcn.exp.f32(i32 12, i32 15, float %v, float %v, float 0.0, float 1.0, i1 true, i1 false)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
