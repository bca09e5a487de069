/*
 * Textures, RTV/DSV heaps and views, footprints, CopyTextureRegion and the
 * clears, through the official interfaces: a render target cleared (whole
 * and by rects) and read back through a READBACK buffer, pixel by pixel
 * against the colour D3D12's float -> UNORM rule gives; footprints against
 * the layout rule (rows 256-byte aligned); each refusal with its message.
 */
#include "d3d12_util.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

static D3D12_RESOURCE_DESC tex_desc(UINT w, UINT h, DXGI_FORMAT f, D3D12_RESOURCE_FLAGS flags)
{
	D3D12_RESOURCE_DESC d = {
		.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D, .Width = w, .Height = h, .DepthOrArraySize = 1,
		.MipLevels = 1, .Format = f, .SampleDesc = { 1, 0 }, .Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN, .Flags = flags,
	};
	return d;
}

static ID3D12Resource *texture(t_ctx *c, UINT w, UINT h, DXGI_FORMAT f, D3D12_RESOURCE_FLAGS flags)
{
	D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
	D3D12_RESOURCE_DESC d = tex_desc(w, h, f, flags);
	ID3D12Resource *r = NULL;
	assert_int_equal(ID3D12Device_CreateCommittedResource(c->dev, &hp, D3D12_HEAP_FLAG_NONE, &d,
							      D3D12_RESOURCE_STATE_RENDER_TARGET, NULL,
							      &IID_ID3D12Resource, (void **)&r),
			 S_OK);
	return r;
}

static ID3D12DescriptorHeap *heap(t_ctx *c, D3D12_DESCRIPTOR_HEAP_TYPE type, UINT n)
{
	D3D12_DESCRIPTOR_HEAP_DESC hd = { .Type = type, .NumDescriptors = n };
	ID3D12DescriptorHeap *h = NULL;
	assert_int_equal(ID3D12Device_CreateDescriptorHeap(c->dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&h), S_OK);
	return h;
}

/* Copies a texture into a READBACK buffer by its footprint; returns the mapped bytes. */
static ID3D12Resource *read_texture(t_ctx *c, ID3D12Resource *tex, D3D12_PLACED_SUBRESOURCE_FOOTPRINT *fp,
				    uint8_t **bytes)
{
	D3D12_RESOURCE_DESC d = ID3D12Resource_GetDesc(tex);
	UINT64 total = 0;
	ID3D12Device_GetCopyableFootprints(c->dev, &d, 0, 1, 0, fp, NULL, NULL, &total);
	ID3D12Resource *rb = t_buffer(c, D3D12_HEAP_TYPE_READBACK, total);
	D3D12_TEXTURE_COPY_LOCATION dst = { .pResource = rb, .Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT,
					    .PlacedFootprint = *fp };
	D3D12_TEXTURE_COPY_LOCATION src = { .pResource = tex, .Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX };
	ID3D12GraphicsCommandList6_CopyTextureRegion(c->list, &dst, 0, 0, 0, &src, NULL);
	assert_int_equal(t_run(c), S_OK);
	assert_int_equal(ID3D12Resource_Map(rb, 0, NULL, (void **)bytes), S_OK);
	return rb;
}

/* D3D12's rule for a float written to UNORM8: clamp to [0, 1], x 255, round to nearest. */
static uint8_t unorm8(float v)
{
	v = v < 0 ? 0 : v > 1 ? 1 : v;
	return (uint8_t)floorf(v * 255.0f + 0.5f);
}

static void footprints_follow_the_layout(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	D3D12_RESOURCE_DESC d = tex_desc(100, 37, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
	D3D12_PLACED_SUBRESOURCE_FOOTPRINT fp;
	UINT rows;
	UINT64 row_bytes, total;
	ID3D12Device_GetCopyableFootprints(c.dev, &d, 0, 1, 1000, &fp, &rows, &row_bytes, &total);
	assert_int_equal(fp.Offset, 1024); /* 512-aligned (D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT) */
	assert_int_equal(fp.Footprint.RowPitch, 512); /* 400 bytes rounded up to 256 */
	assert_int_equal(fp.Footprint.Width, 100);
	assert_int_equal(fp.Footprint.Height, 37);
	assert_int_equal(fp.Footprint.Format, DXGI_FORMAT_R8G8B8A8_UNORM);
	assert_int_equal(rows, 37);
	assert_int_equal(row_bytes, 400);
	assert_int_equal(total, 512 * 36 + 400);
	D3D12_RESOURCE_ALLOCATION_INFO ai = ID3D12Device_GetResourceAllocationInfo(c.dev, 0, 1, &d);
	assert_int_equal(ai.SizeInBytes, 65536); /* 512 x 37 in one 64 KB placement */
	d = tex_desc(1000, 100, DXGI_FORMAT_R32G32B32A32_FLOAT, D3D12_RESOURCE_FLAG_NONE);
	ID3D12Device_GetCopyableFootprints(c.dev, &d, 0, 1, 0, &fp, &rows, &row_bytes, &total);
	assert_int_equal(fp.Footprint.RowPitch, 16128); /* 16000 -> 63 x 256 */
	ai = ID3D12Device_GetResourceAllocationInfo(c.dev, 0, 1, &d);
	assert_int_equal(ai.SizeInBytes, 16128u * 100 + 65536 - (16128u * 100) % 65536);
	/* what xs12 does not lay out: ~0, as D3D12 */
	d = tex_desc(16, 16, DXGI_FORMAT_R16G16_FLOAT, D3D12_RESOURCE_FLAG_NONE);
	ID3D12Device_GetCopyableFootprints(c.dev, &d, 0, 1, 0, &fp, &rows, &row_bytes, &total);
	assert_int_equal(total, ~0ull);
	assert_int_equal(ID3D12Device_GetResourceAllocationInfo(c.dev, 0, 1, &d).SizeInBytes, UINT64_MAX);
	t_close(&c);
}

static void clear_and_read_back(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enum { W = 100, H = 37 };
	ID3D12Resource *rt = texture(&c, W, H, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
	ID3D12DescriptorHeap *rtvs = heap(&c, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 2);
	UINT inc = ID3D12Device_GetDescriptorHandleIncrementSize(c.dev, D3D12_DESCRIPTOR_HEAP_TYPE_RTV);
	assert_true(inc >= 32);
	D3D12_CPU_DESCRIPTOR_HANDLE h = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(rtvs);
	h.ptr += inc; /* the second descriptor */
	ID3D12Device_CreateRenderTargetView(c.dev, rt, NULL, h);
	const float bg[4] = { 0.5f, 0.25f, 1.0f, 0.0f }, fg[4] = { -1.0f, 0.7f, 2.0f, 0.1f };
	D3D12_RECT rects[2] = { { 10, 5, 30, 9 }, { 90, 30, 200, 100 } }; /* the second is clipped to the view */
	ID3D12GraphicsCommandList6_ClearRenderTargetView(c.list, h, bg, 0, NULL);
	ID3D12GraphicsCommandList6_ClearRenderTargetView(c.list, h, fg, 2, rects);
	D3D12_PLACED_SUBRESOURCE_FOOTPRINT fp;
	uint8_t *px;
	ID3D12Resource *rb = read_texture(&c, rt, &fp, &px);
	unsigned wrong = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			bool in = (x >= 10 && x < 30 && y >= 5 && y < 9) || (x >= 90 && y >= 30);
			const float *col = in ? fg : bg;
			for (int k = 0; k < 4; k++)
				wrong += px[y * fp.Footprint.RowPitch + x * 4 + k] != unorm8(col[k]);
		}
	assert_int_equal(wrong, 0);
	assert_int_equal(px[0], 128); /* 0.5 x 255 = 127.5 rounds up */
	ID3D12Resource_Unmap(rb, 0, NULL);
	ID3D12Resource_Release(rb);
	/* a float target and a depth buffer */
	ID3D12Resource *ft = texture(&c, 7, 3, DXGI_FORMAT_R32G32B32A32_FLOAT, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
	ID3D12Resource *ds = texture(&c, 9, 4, DXGI_FORMAT_D32_FLOAT, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL);
	ID3D12DescriptorHeap *dsvs = heap(&c, D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1);
	D3D12_CPU_DESCRIPTOR_HANDLE hf = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(rtvs);
	D3D12_CPU_DESCRIPTOR_HANDLE hd = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(dsvs);
	D3D12_RENDER_TARGET_VIEW_DESC rvd = { .Format = DXGI_FORMAT_R32G32B32A32_FLOAT,
					      .ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2D };
	ID3D12Device_CreateRenderTargetView(c.dev, ft, &rvd, hf);
	ID3D12Device_CreateDepthStencilView(c.dev, ds, NULL, hd);
	ID3D12GraphicsCommandList6_ClearRenderTargetView(c.list, hf, fg, 0, NULL);
	ID3D12GraphicsCommandList6_ClearDepthStencilView(c.list, hd, D3D12_CLEAR_FLAG_DEPTH, 0.75f, 0, 0, NULL);
	rb = read_texture(&c, ft, &fp, &px);
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 7; x++)
			assert_memory_equal(px + y * fp.Footprint.RowPitch + x * 16, fg, 16); /* floats as given */
	ID3D12Resource_Unmap(rb, 0, NULL);
	ID3D12Resource_Release(rb);
	rb = read_texture(&c, ds, &fp, &px);
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 9; x++) {
			float z;
			memcpy(&z, px + y * fp.Footprint.RowPitch + x * 4, 4);
			assert_true(z == 0.75f);
		}
	ID3D12Resource_Unmap(rb, 0, NULL);
	ID3D12Resource_Release(rb);
	char text[256];
	assert_int_equal(t_last_message(&c, text, sizeof(text)), 0); /* no message on the way */
	ID3D12Resource_Release(ds);
	ID3D12Resource_Release(ft);
	ID3D12DescriptorHeap_Release(dsvs);
	ID3D12DescriptorHeap_Release(rtvs);
	ID3D12Resource_Release(rt);
	t_close(&c);
}

/* Buffer -> texture (a box of it) -> buffer: the bytes land where the box says. */
static void copies_both_ways(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enum { W = 70, H = 20 };
	ID3D12Resource *tex = texture(&c, W, H, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_NONE);
	D3D12_RESOURCE_DESC d = ID3D12Resource_GetDesc(tex);
	D3D12_PLACED_SUBRESOURCE_FOOTPRINT fp;
	UINT64 total;
	ID3D12Device_GetCopyableFootprints(c.dev, &d, 0, 1, 0, &fp, NULL, NULL, &total);
	static uint8_t src[512 * H];
	for (size_t i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 7 + 3);
	ID3D12Resource *up = t_upload(&c, src, sizeof(src));
	D3D12_TEXTURE_COPY_LOCATION tl = { .pResource = tex, .Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX };
	D3D12_TEXTURE_COPY_LOCATION bl = { .pResource = up, .Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT,
					   .PlacedFootprint = fp };
	ID3D12GraphicsCommandList6_CopyTextureRegion(c.list, &tl, 0, 0, 0, &bl, NULL);
	/* then a 5x3 box of the buffer's rows 10.. to (60, 2) of the texture */
	D3D12_BOX box = { 1, 10, 0, 6, 13, 1 };
	ID3D12GraphicsCommandList6_CopyTextureRegion(c.list, &tl, 60, 2, 0, &bl, &box);
	uint8_t *px;
	ID3D12Resource *rb = read_texture(&c, tex, &fp, &px);
	unsigned wrong = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W * 4; x++) {
			int sx = x, sy = y;
			if (x >= 60 * 4 && x < 65 * 4 && y >= 2 && y < 5)
				sx = x - 60 * 4 + 4, sy = y - 2 + 10;
			wrong += px[y * 512 + x] != src[sy * 512 + sx];
		}
	assert_int_equal(wrong, 0);
	ID3D12Resource_Unmap(rb, 0, NULL);
	ID3D12Resource_Release(rb);
	ID3D12Resource_Release(up);
	ID3D12Resource_Release(tex);
	t_close(&c);
}

static void refusals(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	char text[1024];
	D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
	ID3D12Resource *r = NULL;
	D3D12_RESOURCE_DESC d = tex_desc(16, 16, DXGI_FORMAT_R16G16_FLOAT, D3D12_RESOURCE_FLAG_NONE);
	assert_int_equal(ID3D12Device_CreateCommittedResource(c.dev, &hp, D3D12_HEAP_FLAG_NONE, &d, 0, NULL,
							      &IID_ID3D12Resource, (void **)&r), E_INVALIDARG);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_TEXTURE_DESC);
	assert_non_null(strstr(text, "R8G8B8A8_UNORM"));
	d = tex_desc(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_NONE);
	d.MipLevels = 2;
	assert_int_equal(ID3D12Device_CreateCommittedResource(c.dev, &hp, D3D12_HEAP_FLAG_NONE, &d, 0, NULL,
							      &IID_ID3D12Resource, (void **)&r), E_INVALIDARG);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_TEXTURE_DESC);
	assert_non_null(strstr(text, "2 mips"));
	d = tex_desc(16, 16, DXGI_FORMAT_D32_FLOAT, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
	assert_int_equal(ID3D12Device_CreateCommittedResource(c.dev, &hp, D3D12_HEAP_FLAG_NONE, &d, 0, NULL,
							      &IID_ID3D12Resource, (void **)&r), E_INVALIDARG);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_TEXTURE_DESC);
	D3D12_HEAP_PROPERTIES up = { .Type = D3D12_HEAP_TYPE_UPLOAD };
	d = tex_desc(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_NONE);
	assert_int_equal(ID3D12Device_CreateCommittedResource(c.dev, &up, D3D12_HEAP_FLAG_NONE, &d, 0, NULL,
							      &IID_ID3D12Resource, (void **)&r), E_INVALIDARG);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_TEXTURE_DESC);
	assert_non_null(strstr(text, "DEFAULT"));
	/* heaps */
	ID3D12DescriptorHeap *h = NULL;
	D3D12_DESCRIPTOR_HEAP_DESC hd = { .Type = D3D12_DESCRIPTOR_HEAP_TYPE_RTV, .NumDescriptors = 1,
					  .Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE };
	assert_int_equal(ID3D12Device_CreateDescriptorHeap(c.dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&h),
			 E_INVALIDARG);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_DESCRIPTOR_HEAP);
	hd = (D3D12_DESCRIPTOR_HEAP_DESC){ .Type = D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, .NumDescriptors = 1 };
	assert_int_equal(ID3D12Device_CreateDescriptorHeap(c.dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&h),
			 E_NOTIMPL);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_NOT_IMPLEMENTED);
	/* views: an RTV of a depth texture, a DSV of a colour one, of a buffer */
	ID3D12Resource *ds = texture(&c, 8, 8, DXGI_FORMAT_D32_FLOAT, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL);
	ID3D12Resource *rt = texture(&c, 8, 8, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
	ID3D12Resource *buf = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 256);
	ID3D12DescriptorHeap *rtvs = heap(&c, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1);
	ID3D12DescriptorHeap *dsvs = heap(&c, D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1);
	D3D12_CPU_DESCRIPTOR_HANDLE hr = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(rtvs);
	D3D12_CPU_DESCRIPTOR_HANDLE hdv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(dsvs);
	ID3D12Device_CreateRenderTargetView(c.dev, ds, NULL, hr);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_VIEW_DESC);
	ID3D12Device_CreateDepthStencilView(c.dev, rt, NULL, hdv);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_VIEW_DESC);
	ID3D12Device_CreateRenderTargetView(c.dev, buf, NULL, hr);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_VIEW_DESC);
	assert_non_null(strstr(text, "a buffer"));
	/* a clear of a descriptor with no view: Close fails */
	const float z[4] = { 0 };
	ID3D12GraphicsCommandList6_ClearRenderTargetView(c.list, hr, z, 0, NULL);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_CLEAR_VIEW);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
	/* a footprint that is not 256-pitched */
	assert_int_equal(ID3D12CommandAllocator_Reset(c.alloc), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
	ID3D12Resource *rb = t_buffer(&c, D3D12_HEAP_TYPE_READBACK, 4096);
	D3D12_TEXTURE_COPY_LOCATION dst = { .pResource = rb, .Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT };
	dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){ DXGI_FORMAT_R8G8B8A8_UNORM, 8, 8, 1, 32 };
	D3D12_TEXTURE_COPY_LOCATION src = { .pResource = rt, .Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX };
	ID3D12GraphicsCommandList6_CopyTextureRegion(c.list, &dst, 0, 0, 0, &src, NULL);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_COPY_TEXTURE);
	assert_non_null(strstr(text, "row pitch 32"));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
	/* kept: the same with a 256 pitch */
	assert_int_equal(ID3D12CommandAllocator_Reset(c.alloc), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
	dst.PlacedFootprint.Footprint.RowPitch = 256;
	ID3D12GraphicsCommandList6_CopyTextureRegion(c.list, &dst, 0, 0, 0, &src, NULL);
	assert_int_equal(t_run(&c), S_OK);
	/* an Offset whose footprint's end wraps past 2^64 to 32 bytes in: outside
	 * the buffer (it would write the memory 64 KB before it) */
	dst.PlacedFootprint.Offset = 0 - (UINT64)65536;
	dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){ DXGI_FORMAT_R8G8B8A8_UNORM, 8, 2, 1, 65536 };
	ID3D12GraphicsCommandList6_CopyTextureRegion(c.list, &dst, 0, 0, 0, &src, NULL);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_COPY_TEXTURE);
	assert_non_null(strstr(text, "offset 18446744073709486080"));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
	ID3D12Resource_Release(rb);
	ID3D12Resource_Release(buf);
	ID3D12Resource_Release(rt);
	ID3D12Resource_Release(ds);
	ID3D12DescriptorHeap_Release(rtvs);
	ID3D12DescriptorHeap_Release(dsvs);
	t_close(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(footprints_follow_the_layout),
		cmocka_unit_test(clear_and_read_back),
		cmocka_unit_test(copies_both_ways),
		cmocka_unit_test(refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
