/*
 * Root-signature deserializer (src/d3d12/xs_d3d12_rootsig.c): the input is
 * a serialized root signature, a DXBC container with an RTS0 part or a
 * bare RTS0, as ID3D12Device::CreateRootSignature receives it.
 * Oracles: a refusal says why (E_INVALIDARG with a message); an accepted
 * blob gives at most D3D12_MAX_ROOT_PARAMS parameters, each of a
 * D3D12_ROOT_PARAMETER_TYPE, with 1..64 values for 32-bit constants and
 * none for the others.
 */
#include <string.h>

#include "d3d12/xs_d3d12_private.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	d3d12_root_param params[D3D12_MAX_ROOT_PARAMS];
	UINT n = 0xdeadbeef;
	char why[512];
	why[0] = 0;
	HRESULT hr = d3d12_root_signature_parse(data, size, params, &n, why, sizeof(why));
	FUZZ_SAY("%s", FAILED(hr) ? why : "accepted");
	if (FAILED(hr)) {
		FUZZ_CHECK(why[0] && memchr(why, 0, sizeof(why)), "refused (0x%08x) without a reason", (unsigned)hr);
		return 0;
	}
	FUZZ_CHECK(n <= D3D12_MAX_ROOT_PARAMS, "%u parameters", n);
	for (UINT i = 0; i < n; i++) {
		const d3d12_root_param *p = &params[i];
		FUZZ_CHECK(p->type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS || p->type == D3D12_ROOT_PARAMETER_TYPE_CBV ||
			   p->type == D3D12_ROOT_PARAMETER_TYPE_SRV || p->type == D3D12_ROOT_PARAMETER_TYPE_UAV ||
			   p->type == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE,
			   "parameter %u of type %d", i, (int)p->type);
		FUZZ_CHECK(p->type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS ? p->num32 >= 1 && p->num32 <= 64 : p->num32 == 0,
			   "parameter %u: %u constants", i, p->num32);
	}
	return 0;
}
