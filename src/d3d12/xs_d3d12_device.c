/*
 * ID3D12Device5 (one vtable serves ID3D12Device up to ID3D12Device5: the
 * versions are prefixes of each other). Creation methods are thin: they
 * call the internal creators of the objects' own files. ID3D12InfoQueue1
 * (with the debug layer) and ID3D12DeviceRemovedExtendedData2 are
 * tear-offs of the device.
 */
#include "d3d12/xs_d3d12_private.h"
#include "common/xs_outfile.h"
#include "d3d12/xs_d3d12_format.h"
#include "d3d12/xs_d3d12_rt.h"
#include "runtime/xs_rt_profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static d3d12_device *impl_from_ID3D12Device5(ID3D12Device5 *iface)
{
	return container_of(iface, d3d12_device, iface);
}

static const ID3D12Device5Vtbl device_vtbl;

d3d12_device *d3d12_device_from_iface(ID3D12Device *iface)
{
	if (!iface || iface->lpVtbl != (const ID3D12DeviceVtbl *)(const void *)&device_vtbl)
		return NULL;
	return impl_from_ID3D12Device5((ID3D12Device5 *)(void *)iface);
}

HRESULT d3d12_device_query(d3d12_device *d, REFIID riid, void **out)
{
	return ID3D12Device5_QueryInterface(&d->iface, riid, out);
}

static HRESULT STDMETHODCALLTYPE device_QueryInterface(ID3D12Device5 *This, REFIID riid, void **out)
{
	d3d12_device *d = impl_from_ID3D12Device5(This);
	if (!out)
		return E_POINTER;
	*out = NULL;
	if (iid_is(riid, &IID_ID3D12Device) || iid_is(riid, &IID_ID3D12Device1) || iid_is(riid, &IID_ID3D12Device2) ||
	    iid_is(riid, &IID_ID3D12Device3) || iid_is(riid, &IID_ID3D12Device4) || iid_is(riid, &IID_ID3D12Device5) ||
	    iid_is(riid, &IID_ID3D12Object) || iid_is(riid, &IID_IUnknown)) {
		*out = This;
	} else if (d->debug && (iid_is(riid, &IID_ID3D12InfoQueue) || iid_is(riid, &IID_ID3D12InfoQueue1))) {
		*out = &d->info.iface;
	} else if (iid_is(riid, &IID_ID3D12DeviceRemovedExtendedData) ||
		   iid_is(riid, &IID_ID3D12DeviceRemovedExtendedData1) ||
		   iid_is(riid, &IID_ID3D12DeviceRemovedExtendedData2)) {
		*out = &d->dred_iface;
	} else {
		return E_NOINTERFACE;
	}
	ID3D12Device5_AddRef(This);
	return S_OK;
}

static ULONG STDMETHODCALLTYPE device_AddRef(ID3D12Device5 *This)
{
	return atomic_fetch_add(&impl_from_ID3D12Device5(This)->obj.refcount, 1) + 1;
}

static ULONG STDMETHODCALLTYPE device_Release(ID3D12Device5 *This)
{
	d3d12_device *d = impl_from_ID3D12Device5(This);
	ULONG n = atomic_fetch_sub(&d->obj.refcount, 1) - 1;
	if (n)
		return n;
	d3d12_device_forget(d);
	d3d12_object_fini(&d->obj);
	d3d12_profile_release(d);
	if (d->trace_path) {
		/* the work is done: every list's fences were waited for, or
		 * abandoned. Written whole or not at all (xs_outfile.h): a failed
		 * write leaves the file the path held. */
		xs_outfile o;
		FILE *f = xs_outfile_open(&o, d->trace_path, "w");
		if (f)
			xs_gpu_trace_write_json(d->rt->gpu, f);
		if (!f || xs_outfile_close(&o, f))
			fprintf(stderr, "xs12 D3D12: XS12_TRACE: cannot write %s\n", d->trace_path);
		free(d->trace_path);
	}
	xs_err re;
	if (xs_rt_record_close(d->rt, &re)) /* (RecordPath / XS12_RECORD: the path keeps what it had) */
		fprintf(stderr, "xs12 D3D12: %s\n", re.msg);
	xs_rt_device_destroy(d->rt);
	d3d12_info_queue_fini(&d->info);
	for (UINT i = 0; i < d->ncrumbs; i++)
		free(d->crumbs[i].ops);
	free(d->crumbs);
	free(d->uses);
	d3d12_exec_fini(d);
	pthread_mutex_destroy(&d->submit_lock);
	free(d);
	return 0;
}

static HRESULT STDMETHODCALLTYPE device_GetPrivateData(ID3D12Device5 *This, REFGUID g, UINT *size, void *data)
{
	return d3d12_object_get_private_data(&impl_from_ID3D12Device5(This)->obj, g, size, data);
}

static HRESULT STDMETHODCALLTYPE device_SetPrivateData(ID3D12Device5 *This, REFGUID g, UINT size, const void *data)
{
	return d3d12_object_set_private_data(&impl_from_ID3D12Device5(This)->obj, g, size, data);
}

static HRESULT STDMETHODCALLTYPE device_SetPrivateDataInterface(ID3D12Device5 *This, REFGUID g, const IUnknown *data)
{
	return d3d12_object_set_private_data_interface(&impl_from_ID3D12Device5(This)->obj, g, data);
}

static HRESULT STDMETHODCALLTYPE device_SetName(ID3D12Device5 *This, LPCWSTR name)
{
	return d3d12_object_set_name(&impl_from_ID3D12Device5(This)->obj, name);
}

static UINT STDMETHODCALLTYPE device_GetNodeCount(ID3D12Device5 *This)
{
	return 1;
}

/* After a removal the methods that make GPU objects fail, as D3D12's do
 * (DXGI_ERROR_DEVICE_REMOVED, *out NULL): nothing new can run on it. */
static bool removed(d3d12_device *d, void **out, HRESULT *hr)
{
	if (!xs_rt_removed(d->rt))
		return false;
	if (out)
		*out = NULL;
	*hr = DXGI_ERROR_DEVICE_REMOVED;
	return true;
}

static HRESULT STDMETHODCALLTYPE device_CreateCommandQueue(ID3D12Device5 *This, const D3D12_COMMAND_QUEUE_DESC *desc,
							   REFIID riid, void **out)
{
	HRESULT hr;
	if (removed(impl_from_ID3D12Device5(This), out, &hr))
		return hr;
	return d3d12_queue_create(impl_from_ID3D12Device5(This), desc, riid, out);
}

static HRESULT STDMETHODCALLTYPE device_CreateCommandAllocator(ID3D12Device5 *This, D3D12_COMMAND_LIST_TYPE type,
							       REFIID riid, void **out)
{
	HRESULT hr;
	if (removed(impl_from_ID3D12Device5(This), out, &hr))
		return hr;
	return d3d12_allocator_create(impl_from_ID3D12Device5(This), type, riid, out);
}

static HRESULT STDMETHODCALLTYPE device_CreateComputePipelineState(ID3D12Device5 *This,
								   const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc,
								   REFIID riid, void **out)
{
	HRESULT hr;
	if (removed(impl_from_ID3D12Device5(This), out, &hr))
		return hr;
	return d3d12_pipeline_create_compute(impl_from_ID3D12Device5(This), desc, riid, out);
}

static HRESULT STDMETHODCALLTYPE device_CreateStateObject(ID3D12Device5 *This, const D3D12_STATE_OBJECT_DESC *desc,
							  REFIID riid, void **out)
{
	HRESULT hr;
	if (removed(impl_from_ID3D12Device5(This), out, &hr))
		return hr;
	return d3d12_state_object_create(impl_from_ID3D12Device5(This), desc, riid, out);
}

static HRESULT STDMETHODCALLTYPE device_CreateCommandList(ID3D12Device5 *This, UINT mask, D3D12_COMMAND_LIST_TYPE type,
							  ID3D12CommandAllocator *alloc, ID3D12PipelineState *pso,
							  REFIID riid, void **out)
{
	if (mask > 1)
		return E_INVALIDARG;
	HRESULT hr;
	if (removed(impl_from_ID3D12Device5(This), out, &hr))
		return hr;
	return d3d12_list_create(impl_from_ID3D12Device5(This), type, alloc, pso, riid, out);
}

static HRESULT STDMETHODCALLTYPE device_CreateCommandList1(ID3D12Device5 *This, UINT mask,
							   D3D12_COMMAND_LIST_TYPE type, D3D12_COMMAND_LIST_FLAGS flags,
							   REFIID riid, void **out)
{
	/* A list created closed, without an allocator until its first Reset. */
	if (mask > 1 || flags)
		return E_INVALIDARG;
	HRESULT hr;
	if (removed(impl_from_ID3D12Device5(This), out, &hr))
		return hr;
	return d3d12_list_create(impl_from_ID3D12Device5(This), type, NULL, NULL, riid, out);
}

static HRESULT STDMETHODCALLTYPE device_CreateRootSignature(ID3D12Device5 *This, UINT mask, const void *blob,
							    SIZE_T size, REFIID riid, void **out)
{
	if (mask > 1)
		return E_INVALIDARG;
	if (blob && d3d12_bytecode_is_code_object(blob, size))
		return d3d12_root_signature_from_code(impl_from_ID3D12Device5(This), blob, size, riid, out);
	return d3d12_root_signature_create(impl_from_ID3D12Device5(This), blob, size, riid, out);
}

static HRESULT STDMETHODCALLTYPE device_CreateCommittedResource(ID3D12Device5 *This, const D3D12_HEAP_PROPERTIES *heap,
								D3D12_HEAP_FLAGS flags, const D3D12_RESOURCE_DESC *desc,
								D3D12_RESOURCE_STATES state,
								const D3D12_CLEAR_VALUE *clear, REFIID riid, void **out)
{
	(void)clear;
	HRESULT hr;
	if (removed(impl_from_ID3D12Device5(This), out, &hr))
		return hr;
	return d3d12_resource_create_committed(impl_from_ID3D12Device5(This), heap, flags, desc, state, riid, out);
}

static HRESULT STDMETHODCALLTYPE device_CreateFence(ID3D12Device5 *This, UINT64 initial, D3D12_FENCE_FLAGS flags,
						    REFIID riid, void **out)
{
	return d3d12_fence_create(impl_from_ID3D12Device5(This), initial, flags, riid, out);
}

static HRESULT STDMETHODCALLTYPE device_CreateQueryHeap(ID3D12Device5 *This, const D3D12_QUERY_HEAP_DESC *desc,
						       REFIID riid, void **out)
{
	HRESULT hr;
	if (removed(impl_from_ID3D12Device5(This), out, &hr))
		return hr;
	return d3d12_query_heap_create(impl_from_ID3D12Device5(This), desc, riid, out);
}

static HRESULT STDMETHODCALLTYPE device_CreateCommandSignature(ID3D12Device5 *This,
							       const D3D12_COMMAND_SIGNATURE_DESC *desc,
							       ID3D12RootSignature *root, REFIID riid, void **out)
{
	return d3d12_command_signature_create(impl_from_ID3D12Device5(This), desc, root, riid, out);
}

HRESULT d3d12_device_removed_reason(const d3d12_device *d)
{
	if (!xs_rt_removed(d->rt))
		return S_OK;
	if (d->rt->removed_status == XS_E_OUT_OF_MEMORY || d->rt->removed_fault.kind == XS_FAULT_HOST_MEMORY)
		return E_OUTOFMEMORY; /* work the host had no memory for (ExecuteCommandLists, the CP, decoding) */
	switch (d->rt->removed_fault.kind) {
	case XS_FAULT_HANG: case XS_FAULT_WATCHDOG: return DXGI_ERROR_DEVICE_HUNG;
	default: return DXGI_ERROR_DEVICE_RESET; /* VM and LDS faults, illegal or unimplemented instructions */
	}
}

static HRESULT STDMETHODCALLTYPE device_GetDeviceRemovedReason(ID3D12Device5 *This)
{
	d3d12_device *d = impl_from_ID3D12Device5(This);
	d3d12_device_note_removal(d);
	return d3d12_device_removed_reason(d);
}

static HRESULT STDMETHODCALLTYPE device_SetStablePowerState(ID3D12Device5 *This, BOOL enable)
{
	return S_OK; /* the model's clock is fixed (Series X: 1825 MHz) */
}

static LUID STDMETHODCALLTYPE device_GetAdapterLuid(ID3D12Device5 *This)
{
	LUID l = { 0x78733132, 0 }; /* "xs12" */
	return l;
}

/* Bytes a description takes in xs12's layout; UINT64_MAX if xs12 cannot make it. */
static UINT64 resource_bytes(d3d12_device *d, const D3D12_RESOURCE_DESC *desc)
{
	const struct d3d12_format *f;
	if (desc->Dimension == D3D12_RESOURCE_DIMENSION_BUFFER)
		return desc->Width;
	if (desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE2D &&
	    d3d12_texture_desc_check(d, desc, "GetResourceAllocationInfo", &f))
		return d3d12_texture_bytes(desc, f);
	return UINT64_MAX;
}

static D3D12_RESOURCE_ALLOCATION_INFO STDMETHODCALLTYPE device_GetResourceAllocationInfo(
	ID3D12Device5 *This, UINT mask, UINT n, const D3D12_RESOURCE_DESC *descs)
{
	d3d12_device *d = impl_from_ID3D12Device5(This);
	D3D12_RESOURCE_ALLOCATION_INFO info = { 0, D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT };
	for (UINT i = 0; i < n; i++) {
		UINT64 bytes = resource_bytes(d, &descs[i]);
		if (bytes == UINT64_MAX) {
			info.SizeInBytes = UINT64_MAX; /* D3D12's answer for a description it cannot place */
			return info;
		}
		info.SizeInBytes = XS_ALIGN_UP(info.SizeInBytes, (UINT64)D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT) +
				   XS_ALIGN_UP(bytes, (UINT64)D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT);
	}
	return info;
}

/* The footprint of a texture's one subresource in a buffer: the texture's
 * own rows (the same 256-byte pitch), so CopyTextureRegion copies the
 * memory as it is. A buffer is one row of Width bytes, as in D3D12. */
static void STDMETHODCALLTYPE device_GetCopyableFootprints(ID3D12Device5 *This, const D3D12_RESOURCE_DESC *desc,
							   UINT first, UINT n, UINT64 base,
							   D3D12_PLACED_SUBRESOURCE_FOOTPRINT *layouts, UINT *rows,
							   UINT64 *row_bytes, UINT64 *total)
{
	d3d12_device *d = impl_from_ID3D12Device5(This);
	const struct d3d12_format *f = NULL;
	bool ok = desc && first == 0 && n == 1 &&
		  (desc->Dimension == D3D12_RESOURCE_DIMENSION_BUFFER ||
		   (desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE2D &&
		    d3d12_texture_desc_check(d, desc, "GetCopyableFootprints", &f)));
	if (!ok) {
		if (desc && (first != 0 || n != 1))
			d3d12_message(d, XS_MSG_TEXTURE_DESC, "GetCopyableFootprints: subresources %u..%u: xs12's "
				      "resources have one (subresource 0)", first, first + n - 1);
		for (UINT i = 0; i < n; i++) {
			if (layouts)
				memset(&layouts[i], 0xff, sizeof(layouts[i])); /* D3D12 fills failures with ~0 */
			if (rows)
				rows[i] = ~0u;
			if (row_bytes)
				row_bytes[i] = ~0ull;
		}
		if (total)
			*total = ~0ull;
		return;
	}
	D3D12_PLACED_SUBRESOURCE_FOOTPRINT l = { 0 };
	l.Offset = XS_ALIGN_UP(base, (UINT64)D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT);
	l.Footprint.Format = desc->Format;
	l.Footprint.Width = (UINT)desc->Width;
	l.Footprint.Height = f ? desc->Height : 1;
	l.Footprint.Depth = 1;
	l.Footprint.RowPitch = f ? (UINT)d3d12_texture_pitch(desc->Width, f->bpp)
				 : (UINT)XS_ALIGN_UP(desc->Width, (UINT64)D3D12_TEXTURE_DATA_PITCH_ALIGNMENT);
	UINT64 rb = f ? desc->Width * f->bpp : desc->Width;
	if (layouts)
		layouts[0] = l;
	if (rows)
		rows[0] = l.Footprint.Height;
	if (row_bytes)
		row_bytes[0] = rb;
	if (total) /* D3D12: the last row counts only its bytes */
		*total = (UINT64)l.Footprint.RowPitch * (l.Footprint.Height - 1) + rb;
}

static HRESULT STDMETHODCALLTYPE device_CreateGraphicsPipelineState(ID3D12Device5 *This,
								   const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc,
								   REFIID riid, void **out)
{
	HRESULT hr;
	if (removed(impl_from_ID3D12Device5(This), out, &hr))
		return hr;
	return d3d12_pipeline_create_graphics(impl_from_ID3D12Device5(This), desc, riid, out);
}

static HRESULT STDMETHODCALLTYPE device_CreatePipelineState(ID3D12Device5 *This, const D3D12_PIPELINE_STATE_STREAM_DESC *desc,
							    REFIID riid, void **out)
{
	HRESULT hr;
	if (removed(impl_from_ID3D12Device5(This), out, &hr))
		return hr;
	return d3d12_pipeline_create_from_stream(impl_from_ID3D12Device5(This), desc, riid, out);
}

static HRESULT STDMETHODCALLTYPE device_CreateDescriptorHeap(ID3D12Device5 *This, const D3D12_DESCRIPTOR_HEAP_DESC *desc,
							     REFIID riid, void **out)
{
	HRESULT hr;
	if (removed(impl_from_ID3D12Device5(This), out, &hr))
		return hr;
	return d3d12_descriptor_heap_create(impl_from_ID3D12Device5(This), desc, riid, out);
}

static UINT STDMETHODCALLTYPE device_GetDescriptorHandleIncrementSize(ID3D12Device5 *This,
								     D3D12_DESCRIPTOR_HEAP_TYPE type)
{
	return d3d12_descriptor_increment(type);
}

static D3D12_HEAP_PROPERTIES STDMETHODCALLTYPE device_GetCustomHeapProperties(ID3D12Device5 *This, UINT mask,
									     D3D12_HEAP_TYPE type)
{
	/* One memory pool, reachable by the CPU (the console's unified memory). */
	D3D12_HEAP_PROPERTIES p = { D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0, 1, 1 };
	if (type == D3D12_HEAP_TYPE_DEFAULT)
		p.CPUPageProperty = D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE;
	else if (type == D3D12_HEAP_TYPE_UPLOAD)
		p.CPUPageProperty = D3D12_CPU_PAGE_PROPERTY_WRITE_COMBINE;
	return p;
}

static HRESULT STDMETHODCALLTYPE device_CheckFeatureSupport(ID3D12Device5 *This, D3D12_FEATURE f, void *data,
							    UINT size)
{
	d3d12_device *d = impl_from_ID3D12Device5(This);
	const xs_devinfo *di = d->rt->info;
#define WANT(T) \
	if (!data || size != sizeof(T)) \
		return E_INVALIDARG; \
	T *o = data
	switch (f) {
	case D3D12_FEATURE_D3D12_OPTIONS: {
		WANT(D3D12_FEATURE_DATA_D3D12_OPTIONS);
		memset(o, 0, sizeof(*o));
		o->ResourceBindingTier = D3D12_RESOURCE_BINDING_TIER_3;
		o->TiledResourcesTier = D3D12_TILED_RESOURCES_TIER_NOT_SUPPORTED;
		o->ResourceHeapTier = D3D12_RESOURCE_HEAP_TIER_2;
		o->MaxGPUVirtualAddressBitsPerResource = XS_VM_VA_BITS;
		o->DoublePrecisionFloatShaderOps = TRUE;
		o->TypedUAVLoadAdditionalFormats = TRUE;
		o->ConservativeRasterizationTier = D3D12_CONSERVATIVE_RASTERIZATION_TIER_NOT_SUPPORTED;
		return S_OK;
	}
	case D3D12_FEATURE_D3D12_OPTIONS1: {
		WANT(D3D12_FEATURE_DATA_D3D12_OPTIONS1);
		o->WaveOps = TRUE;
		o->WaveLaneCountMin = 32;
		o->WaveLaneCountMax = 64;
		o->TotalLaneCount = di->num_cu * di->simds_per_cu * 32;
		o->ExpandedComputeResourceStates = TRUE;
		o->Int64ShaderOps = TRUE;
		return S_OK;
	}
	case D3D12_FEATURE_ARCHITECTURE: {
		WANT(D3D12_FEATURE_DATA_ARCHITECTURE);
		if (o->NodeIndex)
			return E_INVALIDARG;
		o->TileBasedRenderer = FALSE;
		o->UMA = TRUE;          /* one memory for CPU and GPU */
		o->CacheCoherentUMA = TRUE;
		return S_OK;
	}
	case D3D12_FEATURE_FEATURE_LEVELS: {
		WANT(D3D12_FEATURE_DATA_FEATURE_LEVELS);
		o->MaxSupportedFeatureLevel = D3D_FEATURE_LEVEL_11_0;
		for (UINT i = 0; i < o->NumFeatureLevels; i++)
			if (o->pFeatureLevelsRequested[i] > o->MaxSupportedFeatureLevel &&
			    o->pFeatureLevelsRequested[i] <= D3D_FEATURE_LEVEL_12_2)
				o->MaxSupportedFeatureLevel = o->pFeatureLevelsRequested[i];
		return S_OK;
	}
	case D3D12_FEATURE_GPU_VIRTUAL_ADDRESS_SUPPORT: {
		WANT(D3D12_FEATURE_DATA_GPU_VIRTUAL_ADDRESS_SUPPORT);
		o->MaxGPUVirtualAddressBitsPerResource = XS_VM_VA_BITS;
		o->MaxGPUVirtualAddressBitsPerProcess = XS_VM_VA_BITS;
		return S_OK;
	}
	case D3D12_FEATURE_D3D12_OPTIONS5: {
		WANT(D3D12_FEATURE_DATA_D3D12_OPTIONS5);
		memset(o, 0, sizeof(*o));
		o->RaytracingTier = D3D12_RAYTRACING_TIER_1_0; /* TraceRay from HIP code objects (xs12_rt.h) */
		return S_OK;
	}
	default:
		d3d12_message(d, XS_MSG_NOT_IMPLEMENTED, "CheckFeatureSupport: feature %d is not reported", (int)f);
		return E_INVALIDARG;
	}
#undef WANT
}

static const ID3D12Device5Vtbl device_vtbl = {
	XS_D3D12_STUBS_ID3D12Device5,
	.QueryInterface = device_QueryInterface, .AddRef = device_AddRef, .Release = device_Release,
	.GetPrivateData = device_GetPrivateData, .SetPrivateData = device_SetPrivateData,
	.SetPrivateDataInterface = device_SetPrivateDataInterface, .SetName = device_SetName,
	.GetNodeCount = device_GetNodeCount, .CreateCommandQueue = device_CreateCommandQueue,
	.CreateCommandAllocator = device_CreateCommandAllocator,
	.CreateComputePipelineState = device_CreateComputePipelineState,
	.CreateCommandList = device_CreateCommandList, .CheckFeatureSupport = device_CheckFeatureSupport,
	.GetRaytracingAccelerationStructurePrebuildInfo = d3d12_device_GetRaytracingAccelerationStructurePrebuildInfo,
	.CreateRootSignature = device_CreateRootSignature, .CreateCommittedResource = device_CreateCommittedResource,
	.CreateFence = device_CreateFence, .GetDeviceRemovedReason = device_GetDeviceRemovedReason,
	.CreateCommandSignature = device_CreateCommandSignature, .CreateQueryHeap = device_CreateQueryHeap, .SetStablePowerState = device_SetStablePowerState,
	.GetAdapterLuid = device_GetAdapterLuid, .GetResourceAllocationInfo = device_GetResourceAllocationInfo,
	.GetCopyableFootprints = device_GetCopyableFootprints,
	.CreateGraphicsPipelineState = device_CreateGraphicsPipelineState,
	.CreatePipelineState = device_CreatePipelineState, .CreateDescriptorHeap = device_CreateDescriptorHeap,
	.GetDescriptorHandleIncrementSize = device_GetDescriptorHandleIncrementSize,
	.CreateRenderTargetView = d3d12_device_CreateRenderTargetView,
	.CreateDepthStencilView = d3d12_device_CreateDepthStencilView,
	.GetCustomHeapProperties = device_GetCustomHeapProperties, .CreateCommandList1 = device_CreateCommandList1,
	.CreateStateObject = device_CreateStateObject,
};

HRESULT d3d12_device_create(const XS12_DEVICE_DESC *desc, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	d3d12_device *d = xs_calloc(1, sizeof(*d));
	if (!d)
		return E_OUTOFMEMORY;
	d->iface.lpVtbl = &device_vtbl;
	d->dred_iface.lpVtbl = &d3d12_dred_vtbl;
	d3d12_object_init(&d->obj, NULL, "ID3D12Device");
	pthread_mutex_init(&d->submit_lock, NULL);
	d->desc = *desc;
	d->debug = desc->DebugLayer || d3d12_debug_layer_requested;
	d->dred_breadcrumbs = d3d12_dred_breadcrumbs_requested;
	d->dred_page_faults = d3d12_dred_page_faults_requested;
	d3d12_info_queue_init(&d->info);
	xs_rt_config cfg = {
		.machine = desc->Machine == XS12_MACHINE_SERIES_S ? XS_MACHINE_SERIES_S : XS_MACHINE_SERIES_X,
		.scratch_waves = desc->DefaultScratchWaves, .functional = desc->Functional, .threads = desc->HostThreads,
		.hang_gpu_us = desc->HangGpuMicroseconds, .hang_host_ms = desc->HangHostMilliseconds,
		.watchdog_wave_insts = desc->WaveInstructionBudget, .timing_threads = desc->TimingHostThreads,
	};
	xs_err e;
	if ((unsigned)desc->Machine > XS12_MACHINE_SERIES_S || xs_rt_device_create(&cfg, &d->rt, &e)) {
		HRESULT bad = E_INVALIDARG;
		if ((unsigned)desc->Machine > XS12_MACHINE_SERIES_S) {
			fprintf(stderr, "xs12 D3D12: XS12_DEVICE_DESC.Machine %d is not a machine\n", (int)desc->Machine);
		} else {
			fprintf(stderr, "xs12 D3D12: %s\n", e.msg);
			bad = d3d12_hresult(e.status); /* E_OUTOFMEMORY for the host's memory, as D3D12CreateDevice */
		}
		d3d12_info_queue_fini(&d->info);
		pthread_mutex_destroy(&d->obj.lock);
		pthread_mutex_destroy(&d->submit_lock);
		free(d);
		return bad;
	}
	/* A D3D12 program's submissions recorded without changing it. With
	 * XS12_RECORD, the process's first device writes PATH, the next ones
	 * PATH.2, PATH.3, ... (a recording is of one device). */
	const char *rec = desc->RecordPath;
	char numbered[1100];
	if (!rec && (rec = getenv("XS12_RECORD")) && *rec) {
		static atomic_uint devices;
		unsigned n = atomic_fetch_add(&devices, 1) + 1;
		if (n > 1) {
			snprintf(numbered, sizeof(numbered), "%s.%u", rec, n);
			rec = numbered;
		}
	}
	if (rec && *rec && xs_rt_record_open(d->rt, rec, &e))
		fprintf(stderr, "xs12 D3D12: %s\n", e.msg);
	/* XS12_TRACE=PATH: the timeline (Chrome trace / Perfetto JSON: a track per
	 * stage, per queue and per wave slot) written when the device is
	 * released; the process's later devices write PATH.2, PATH.3, ... */
	const char *tp = desc->TracePath ? desc->TracePath : getenv("XS12_TRACE");
	if (tp && *tp && desc->TracePath) {
		if ((d->trace_path = xs_strdup(tp)))
			xs_gpu_trace_enable(d->rt->gpu, true);
	} else if (tp && *tp) {
		static atomic_uint traced;
		unsigned n = atomic_fetch_add(&traced, 1) + 1;
		char path[1100];
		if (n > 1)
			snprintf(path, sizeof(path), "%s.%u", tp, n);
		else
			snprintf(path, sizeof(path), "%s", tp);
		if ((d->trace_path = xs_strdup(path)))
			xs_gpu_trace_enable(d->rt->gpu, true);
	}
	/* XS12_PROFILE=PATH: the instruction timing of everything the device
	 * ran, written when it is released (timing mode); later devices of the
	 * process write PATH.2, ... before the extension: prof.html -> prof.2.html */
	const char *pp = desc->ProfilePath ? desc->ProfilePath : getenv("XS12_PROFILE");
	if (pp && *pp && desc->Functional) {
		fprintf(stderr, "xs12 D3D12: XS12_PROFILE: a functional device has no timing to profile\n");
	} else if (pp && *pp) {
		static atomic_uint profiled;
		unsigned n = desc->ProfilePath ? 1 : atomic_fetch_add(&profiled, 1) + 1;
		char path[1100];
		const char *dot = strrchr(pp, '.');
		if (n > 1 && dot && !strchr(dot, '/'))
			snprintf(path, sizeof(path), "%.*s.%u%s", (int)(dot - pp), pp, n, dot);
		else if (n > 1)
			snprintf(path, sizeof(path), "%s.%u", pp, n);
		else
			snprintf(path, sizeof(path), "%s", pp);
		xs_err pe = { 0 };
		if ((d->profile_path = xs_strdup(path)) && xs_rt_profile_enable(d->rt, true, &pe)) {
			free(d->profile_path);
			d->profile_path = NULL;
		}
	}
	HRESULT hr = ID3D12Device5_QueryInterface(&d->iface, riid, out);
	ID3D12Device5_Release(&d->iface);
	return hr;
}
