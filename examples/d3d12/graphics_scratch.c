/*
 * graphics_scratch.c — the documented recipe for the graphics scratch ring
 * (SPEC S1.12) as written: ask the pipeline how much scratch a wave needs
 * (GetInformationX x 1024), make a ring of 8 such waves,
 * SetShaderScratchSpaceX(GRAPHICS, base, total, per-wave), SetPipelineState,
 * DrawInstanced(128, 1, 0, 0). The pixel shader (kernels/gfx/spill.ps.cl)
 * indexes a private array by the pixel's x, which LLVM keeps in scratch;
 * every pixel is checked against the CPU.
 *
 *   cc -std=c11 graphics_scratch.c $(pkg-config --cflags --libs xs12) -o graphics_scratch
 *   ./graphics_scratch build/kernels
 */
#include "helpers.h"

enum { W = 96, H = 64, VERTICES = 128 };

static ID3D12PipelineState *graphics_pipeline(ID3D12Device *device, const char *dir, ID3D12RootSignature *root)
{
	size_t vs_size, ps_size;
	void *vs = read_file(kernel_file(dir, "gfx/gfx_color_vs.pal.o"), &vs_size);
	void *ps = read_file(kernel_file(dir, "gfx/gfx_spill_ps.pal.o"), &ps_size);
	static const D3D12_INPUT_ELEMENT_DESC layout[2] = {
		{ "POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
		{ "COLOR", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 16, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
	};
	D3D12_GRAPHICS_PIPELINE_STATE_DESC d;
	memset(&d, 0, sizeof(d));
	d.pRootSignature = root;
	d.VS.pShaderBytecode = vs;
	d.VS.BytecodeLength = vs_size;
	d.PS.pShaderBytecode = ps;
	d.PS.BytecodeLength = ps_size;
	d.BlendState.RenderTarget[0].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
	d.SampleMask = UINT32_MAX;
	d.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
	d.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
	d.RasterizerState.DepthClipEnable = TRUE;
	d.InputLayout.pInputElementDescs = layout;
	d.InputLayout.NumElements = 2;
	d.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
	d.NumRenderTargets = 1;
	d.RTVFormats[0] = DXGI_FORMAT_R32G32B32A32_FLOAT;
	d.SampleDesc.Count = 1;
	ID3D12PipelineState *pso;
	CHECK(ID3D12Device_CreateGraphicsPipelineState(device, &d, &IID_ID3D12PipelineState, (void **)&pso));
	free(vs);
	free(ps);
	return pso;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s KERNEL_DIR (build/kernels)\n", argv[0]);
		return 2;
	}
	ID3D12Debug *debug;
	CHECK(D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&debug));
	ID3D12Debug_EnableDebugLayer(debug);
	ID3D12Debug_Release(debug);
	ID3D12Device *device;
	CHECK(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_12_0, &IID_ID3D12Device, (void **)&device));
	D3D12_COMMAND_QUEUE_DESC qd = { .Type = D3D12_COMMAND_LIST_TYPE_DIRECT };
	ID3D12CommandQueue *queue;
	ID3D12CommandAllocator *allocator;
	ID3D12GraphicsCommandList6 *list;
	ID3D12Fence *fence;
	UINT64 fence_value = 0;
	CHECK(ID3D12Device_CreateCommandQueue(device, &qd, &IID_ID3D12CommandQueue, (void **)&queue));
	CHECK(ID3D12Device_CreateCommandAllocator(device, qd.Type, &IID_ID3D12CommandAllocator, (void **)&allocator));
	CHECK(ID3D12Device_CreateCommandList(device, 0, qd.Type, allocator, NULL, &IID_ID3D12GraphicsCommandList6,
					     (void **)&list));
	CHECK(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence));
	HANDLE event = XS12CreateEvent();

	/* The PS reads one root constant (the table's base value). */
	D3D12_ROOT_PARAMETER rp = { .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS,
				    .Constants = { .Num32BitValues = 1 }, .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL };
	D3D12_ROOT_SIGNATURE_DESC rsd = { .NumParameters = 1, .pParameters = &rp };
	ID3DBlob *rs_blob;
	CHECK(D3D12SerializeRootSignature(&rsd, D3D_ROOT_SIGNATURE_VERSION_1_0, &rs_blob, NULL));
	ID3D12RootSignature *root;
	CHECK(ID3D12Device_CreateRootSignature(device, 0, ID3DBlob_GetBufferPointer(rs_blob), ID3DBlob_GetBufferSize(rs_blob),
					       &IID_ID3D12RootSignature, (void **)&root));
	ID3DBlob_Release(rs_blob);
	ID3D12PipelineState *pso = graphics_pipeline(device, argv[1], root);

	/* S1.11 / S1.12: per wave = the answer x 1024; the ring holds 8 such waves. */
	ID3DBlob *blob;
	CHECK(ID3D12PipelineState_GetInformationX(
		pso, D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW, 0, &blob));
	UINT scratch_units = *(const UINT *)ID3DBlob_GetBufferPointer(blob);
	ID3DBlob_Release(blob);
	UINT per_wave_bytes = scratch_units * 1024;
	UINT64 ring_bytes = (UINT64)per_wave_bytes * 8;
	ID3D12Resource *scratch = create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, ring_bytes);

	/* A float render target, its RTV, and 128 vertices: two triangles that
	 * cover it, then 40 degenerate ones (and two left over). */
	D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
	D3D12_RESOURCE_DESC td = { .Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D, .Width = W, .Height = H,
				   .DepthOrArraySize = 1, .MipLevels = 1, .Format = DXGI_FORMAT_R32G32B32A32_FLOAT,
				   .SampleDesc = { 1, 0 }, .Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET };
	ID3D12Resource *target;
	CHECK(ID3D12Device_CreateCommittedResource(device, &hp, D3D12_HEAP_FLAG_NONE, &td, D3D12_RESOURCE_STATE_RENDER_TARGET,
						   NULL, &IID_ID3D12Resource, (void **)&target));
	D3D12_DESCRIPTOR_HEAP_DESC hd = { .Type = D3D12_DESCRIPTOR_HEAP_TYPE_RTV, .NumDescriptors = 1 };
	ID3D12DescriptorHeap *rtvs;
	CHECK(ID3D12Device_CreateDescriptorHeap(device, &hd, &IID_ID3D12DescriptorHeap, (void **)&rtvs));
	D3D12_CPU_DESCRIPTOR_HANDLE rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(rtvs);
	ID3D12Device_CreateRenderTargetView(device, target, NULL, rtv);
	const float color[4] = { 0.25f, 0.5f, 0.75f, 1.0f }, base = 1.0f;
	static float verts[VERTICES][8];
	static const float quad[6][2] = { { -1, -1 }, { -1, 1 }, { 1, 1 }, { -1, -1 }, { 1, 1 }, { 1, -1 } };
	for (int i = 0; i < VERTICES; i++) {
		verts[i][0] = i < 6 ? quad[i][0] : 0.0f;
		verts[i][1] = i < 6 ? quad[i][1] : 0.0f;
		verts[i][2] = 0.5f;
		verts[i][3] = 1.0f;
		memcpy(&verts[i][4], color, sizeof(color));
	}
	ID3D12Resource *vb = create_upload_buffer(device, verts, sizeof(verts));
	D3D12_RESOURCE_DESC rd = ID3D12Resource_GetDesc(target);
	D3D12_PLACED_SUBRESOURCE_FOOTPRINT fp;
	UINT64 total;
	ID3D12Device_GetCopyableFootprints(device, &rd, 0, 1, 0, &fp, NULL, NULL, &total);
	ID3D12Resource *readback = create_buffer(device, D3D12_HEAP_TYPE_READBACK, total);

	/* The recipe (S1.12), then the draw's state. */
	D3D12_GPU_VIRTUAL_ADDRESS ring = ID3D12Resource_GetGPUVirtualAddress(scratch);
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_GRAPHICS, ring,
							  ring_bytes, per_wave_bytes);
	ID3D12GraphicsCommandList6_SetPipelineState(list, pso);
	ID3D12GraphicsCommandList6_SetGraphicsRootSignature(list, root);
	UINT base_bits;
	memcpy(&base_bits, &base, 4);
	ID3D12GraphicsCommandList6_SetGraphicsRoot32BitConstant(list, 0, base_bits, 0);
	ID3D12GraphicsCommandList6_IASetPrimitiveTopology(list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
	D3D12_VERTEX_BUFFER_VIEW vbv = { ID3D12Resource_GetGPUVirtualAddress(vb), sizeof(verts), sizeof(verts[0]) };
	ID3D12GraphicsCommandList6_IASetVertexBuffers(list, 0, 1, &vbv);
	D3D12_VIEWPORT vp = { 0, 0, W, H, 0, 1 };
	D3D12_RECT sc = { 0, 0, W, H };
	ID3D12GraphicsCommandList6_RSSetViewports(list, 1, &vp);
	ID3D12GraphicsCommandList6_RSSetScissorRects(list, 1, &sc);
	ID3D12GraphicsCommandList6_OMSetRenderTargets(list, 1, &rtv, FALSE, NULL);
	const float clear[4] = { 0, 0, 0, 0 };
	ID3D12GraphicsCommandList6_ClearRenderTargetView(list, rtv, clear, 0, NULL);
	ID3D12GraphicsCommandList6_DrawInstanced(list, VERTICES, 1, 0, 0);
	transition(list, target, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE);
	D3D12_TEXTURE_COPY_LOCATION dst = { .pResource = readback, .Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT,
					    .PlacedFootprint = fp };
	D3D12_TEXTURE_COPY_LOCATION src = { .pResource = target, .Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX };
	ID3D12GraphicsCommandList6_CopyTextureRegion(list, &dst, 0, 0, 0, &src, NULL);
	execute_and_wait(queue, list, fence, &fence_value, event);

	/* The PS: table[i] = base + i x colour.x; out = (table[x & 63], table[5x & 63], colour.z, 1). */
	const char *mapped;
	CHECK(ID3D12Resource_Map(readback, 0, NULL, (void **)&mapped));
	unsigned right = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			float px[4], want[4] = { base + (float)(x & 63) * color[0], base + (float)((x * 5) & 63) * color[0],
						 color[2], 1.0f };
			memcpy(px, mapped + (size_t)y * fp.Footprint.RowPitch + (size_t)x * 16, 16);
			right += memcmp(px, want, 16) == 0;
		}
	ID3D12Resource_Unmap(readback, 0, NULL);

	printf("GetInformationX: %u x 256 DWORDs = %u bytes of scratch per wave (the larger of VS and PS)\n",
	       scratch_units, per_wave_bytes);
	printf("SetShaderScratchSpaceX(GRAPHICS): a ring of %llu bytes = %llu waves of %u bytes\n",
	       (unsigned long long)ring_bytes, (unsigned long long)(ring_bytes / per_wave_bytes), per_wave_bytes);
	printf("DrawInstanced(%d, 1, 0, 0): %d x %d pixels through the spilling PS\n", VERTICES, W, H);
	printf("results: %u of %u pixels match the CPU\n", right, W * H);

	XS12CloseEvent(event);
	ID3D12Resource_Release(readback);
	ID3D12Resource_Release(vb);
	ID3D12DescriptorHeap_Release(rtvs);
	ID3D12Resource_Release(target);
	ID3D12Resource_Release(scratch);
	ID3D12PipelineState_Release(pso);
	ID3D12RootSignature_Release(root);
	ID3D12Fence_Release(fence);
	ID3D12GraphicsCommandList6_Release(list);
	ID3D12CommandAllocator_Release(allocator);
	ID3D12CommandQueue_Release(queue);
	ID3D12Device_Release(device);
	return right == W * H && per_wave_bytes > 0 ? 0 : 1;
}
