// seed_s2.cpp — issue 10 §4's seed line for DispatchRaysX, in the S2
// recipe around it (written from docs/spec.md S2.1, S2.4, S2.5): size the
// scratch of a ray-tracing pipeline with GetInformationX and hand it to
// DispatchRaysX. Compiled, not run, by
// tests/cli/seed_s2.py with g++ and clang++ against the installed-style
// headers (pkg-config xs12), so the note in docs/spec.md S2 stays true:
//
//   auto& ref = ComPtr<ID3D12StateObject>(pRTPSO);   // the seed's line
//
// binds a temporary to a non-const lvalue reference, which only MSVC
// accepts (a language extension, off under /permissive-). The portable
// line names the object instead; -DXS12_SEED_AS_WRITTEN compiles the
// seed's own line, which g++ and clang++ must refuse.
#include <xs12/d3d12_xs.h>
#include <wrl/client.h>

using Microsoft::WRL::ComPtr;

UINT64 DispatchWithTitleScratch(ID3D12StateObject *pRTPSO, ID3D12GraphicsCommandList6 *pCmdList,
				const D3D12_DISPATCH_RAYS_DESC &dispatchDesc, D3D12_GPU_VIRTUAL_ADDRESS scratch,
				UINT waves)
{
#ifdef XS12_SEED_AS_WRITTEN
	auto& ref = ComPtr<ID3D12StateObject>(pRTPSO);
#else
	auto ref = ComPtr<ID3D12StateObject>(pRTPSO);
#endif
	ComPtr<ID3D12StateObjectProperties> props;
	ref.As(&props);
	D3D12XBOX_RAYTRACING_INFORMATION info = {};
	props->GetInformationX(0, &info);                                 // S2.4: bytes per lane
	UINT64 perWave = (UINT64(info.ScratchSize) * 32 + 1023) & ~UINT64(1023); // S2.5: wave32, 1 KB blocks
	D3D12XBOX_DISPATCH_RAYS_DESC desc = {};
	desc.DispatchArgs = dispatchDesc;                                  // S2.1
	desc.Scratch.StartAddress = scratch;
	desc.Scratch.SizeInBytes = perWave * waves;
	pCmdList->DispatchRaysX(&desc);
	return desc.Scratch.SizeInBytes;
}
