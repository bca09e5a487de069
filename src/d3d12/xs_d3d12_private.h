/*
 * The D3D12 layer: Microsoft's interfaces (d3d12.h) implemented in C over
 * the runtime (src/runtime), as vkd3d does it. One object per file; each
 * object struct embeds its interface first and finds itself with
 * impl_from_* (container_of); methods are thin and call internal creators.
 * The Xbox extensions live in xs_d3d12_command_xbox.c and
 * xs_d3d12_state_xbox.c. The layer never touches the GPU model's insides:
 * everything it does becomes PM4 and GPU memory through the runtime.
 */
#ifndef XS_D3D12_PRIVATE_H
#define XS_D3D12_PRIVATE_H

#include "d3d12/xs_d3d12_com.h"
#include "d3d12/xs_d3d12_stubs.h"
#include "runtime/xs_rt.h"

#include <pthread.h>
#include <stdatomic.h>

#define container_of(ptr, type, member) ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* ---- what every object has (ID3D12Object) ------------------------------------------- */

typedef struct d3d12_private_data {
	GUID guid;
	IUnknown *iface;       /* SetPrivateDataInterface, AddRef'ed */
	void *data;
	UINT size;
} d3d12_private_data;

struct d3d12_device;

typedef struct d3d12_object {
	atomic_uint refcount;
	struct d3d12_device *device;   /* AddRef'ed by children */
	char name[128];                /* SetName, as UTF-8 */
	const char *kind;              /* "ID3D12Fence", for messages */
	d3d12_private_data *priv;
	uint32_t npriv;
	pthread_mutex_t lock;
} d3d12_object;

void d3d12_object_init(d3d12_object *o, struct d3d12_device *device, const char *kind);
void d3d12_object_fini(d3d12_object *o);
HRESULT d3d12_object_get_private_data(d3d12_object *o, REFGUID guid, UINT *size, void *data);
HRESULT d3d12_object_set_private_data(d3d12_object *o, REFGUID guid, UINT size, const void *data);
HRESULT d3d12_object_set_private_data_interface(d3d12_object *o, REFGUID guid, const IUnknown *iface);
HRESULT d3d12_object_set_name(d3d12_object *o, LPCWSTR name);
/* "ID3D12Fence 'frame fence'" or "ID3D12Fence 0x..." */
const char *d3d12_object_label(const d3d12_object *o, char *buf, size_t n);

/* The four ID3D12Object methods and GetDevice for an interface whose
 * object has a d3d12_object named `obj`, reached by impl_from_<Iface>. */
#define D3D12_OBJECT_METHODS(prefix, Iface, type)                                                              \
	static HRESULT STDMETHODCALLTYPE prefix##_GetPrivateData(Iface *This, REFGUID guid, UINT *size, void *data) \
	{                                                                                                      \
		return d3d12_object_get_private_data(&impl_from_##Iface(This)->obj, guid, size, data);         \
	}                                                                                                      \
	static HRESULT STDMETHODCALLTYPE prefix##_SetPrivateData(Iface *This, REFGUID guid, UINT size,          \
								 const void *data)                              \
	{                                                                                                      \
		return d3d12_object_set_private_data(&impl_from_##Iface(This)->obj, guid, size, data);         \
	}                                                                                                      \
	static HRESULT STDMETHODCALLTYPE prefix##_SetPrivateDataInterface(Iface *This, REFGUID guid,            \
									  const IUnknown *data)                 \
	{                                                                                                      \
		return d3d12_object_set_private_data_interface(&impl_from_##Iface(This)->obj, guid, data);     \
	}                                                                                                      \
	static HRESULT STDMETHODCALLTYPE prefix##_SetName(Iface *This, LPCWSTR name)                           \
	{                                                                                                      \
		return d3d12_object_set_name(&impl_from_##Iface(This)->obj, name);                             \
	}                                                                                                      \
	static HRESULT STDMETHODCALLTYPE prefix##_GetDevice(Iface *This, REFIID riid, void **out)               \
	{                                                                                                      \
		return d3d12_device_query(impl_from_##Iface(This)->obj.device, riid, out);                     \
	}
#define D3D12_OBJECT_SLOTS(prefix)                                                                             \
	.GetPrivateData = prefix##_GetPrivateData, .SetPrivateData = prefix##_SetPrivateData,                  \
	.SetPrivateDataInterface = prefix##_SetPrivateDataInterface, .SetName = prefix##_SetName,             \
	.GetDevice = prefix##_GetDevice

static inline bool iid_is(REFIID a, const IID *b)
{
	return memcmp(a, b, sizeof(IID)) == 0;
}

/* ---- the debug layer: messages (ID3D12InfoQueue) --------------------------------------- */

typedef struct d3d12_stored_message {
	D3D12_MESSAGE_CATEGORY category;
	D3D12_MESSAGE_SEVERITY severity;
	D3D12_MESSAGE_ID id;
	char *text;
} d3d12_stored_message;

#define D3D12_INFO_QUEUE_MAX_FILTERS 16
#define D3D12_INFO_QUEUE_MAX_CALLBACKS 8

typedef struct d3d12_filter {
	D3D12_MESSAGE_CATEGORY *deny_cat, *allow_cat;
	D3D12_MESSAGE_SEVERITY *deny_sev, *allow_sev;
	D3D12_MESSAGE_ID *deny_id, *allow_id;
	UINT ndeny_cat, nallow_cat, ndeny_sev, nallow_sev, ndeny_id, nallow_id;
} d3d12_filter;

typedef struct d3d12_info_queue {
	ID3D12InfoQueue1 iface;        /* a tear-off of the device */
	pthread_mutex_t lock;
	/* A ring of the last `limit` stored messages, allocated as they come
	 * (`cap` slots, doubling up to the limit): a limit is the client's
	 * number, not an allocation size. */
	d3d12_stored_message *msgs;
	UINT64 nmsgs, first, cap, limit, discarded;
	UINT64 allowed_by_filter, denied_by_filter;
	d3d12_filter storage[D3D12_INFO_QUEUE_MAX_FILTERS];
	UINT nstorage;
	bool break_on_severity[5], break_on_category[11];
	bool mute_debug_output;
	struct { D3D12MessageFunc fn; void *ctx; DWORD cookie; D3D12_MESSAGE_CALLBACK_FLAGS flags; } cb[D3D12_INFO_QUEUE_MAX_CALLBACKS];
	UINT ncb;
	DWORD next_cookie;
} d3d12_info_queue;

/* ---- device ------------------------------------------------------------------------------ */

/* DRED (ID3D12DeviceRemovedExtendedData2): what ran when the device went. */
typedef struct d3d12_breadcrumb_list {
	D3D12_AUTO_BREADCRUMB_NODE1 node;
	D3D12_AUTO_BREADCRUMB_NODE node0; /* the same for GetAutoBreadcrumbsOutput */
	D3D12_AUTO_BREADCRUMB_OP *ops;
	const volatile UINT *word;     /* the list's breadcrumb word: ops the GPU completed (NULL: copied) */
	const struct d3d12_allocator *alloc; /* whose command memory holds *word (d3d12_dred_allocator_gone) */
	unsigned hw;
	uint64_t seq;                  /* the execution's work item on hardware queue hw */
	UINT completed;                /* what node.pLastBreadcrumbValue points at after a removal */
	char list_name[128];           /* labels, for the report */
	char queue_name[64];
	char list_debug_name[128];     /* SetName's, for the node (NULL when unnamed, as D3D12's) */
	char queue_debug_name[128];
} d3d12_breadcrumb_list;

/* One execution of a list: its dispatches' figures (xs_d3d12_stats.c). */
typedef struct d3d12_exec {
	uint32_t list_id;
	unsigned hw;
	uint64_t seq;
	xs_gpu_dispatch_result *res;
	uint32_t n;
	bool superseded;               /* a later execution of the list, or the list is gone */
} d3d12_exec;

typedef struct d3d12_device {
	ID3D12Device5 iface;
	ID3D12DeviceRemovedExtendedData2 dred_iface;
	d3d12_object obj;
	xs_rt_device *rt;
	XS12_DEVICE_DESC desc;
	bool debug;
	d3d12_info_queue info;
	char *trace_path;        /* XS12_TRACE: the GPU's timeline is written here at release */
	char *profile_path;      /* XS12_PROFILE: the instruction timing, written at release */
	/* DRED */
	bool dred_breadcrumbs, dred_page_faults;
	d3d12_breadcrumb_list *crumbs;
	UINT ncrumbs;
	D3D12_DRED_ALLOCATION_NODE1 fault_nodes[8];  /* 4 existing, then 4 freed */
	D3D12_DRED_ALLOCATION_NODE fault_nodes0[8];
	D3D12_DRED_PAGE_FAULT_OUTPUT2 fault;
	char fault_names[8][208];
	bool removal_noted;
	UINT compute_queues;           /* COMPUTE queues made: they share hardware queues 1..3 in turn */
	/* scratch reuse (S1.10): uses of memory by rings of submitted work,
	 * and what fence waits have ordered: order[q][o] = the sequence of
	 * hardware queue o that work now submitted on q follows */
	struct d3d12_scratch_use *uses;
	UINT nuses, cap_uses;
	uint64_t order[XS_GPU_MAX_QUEUES][XS_GPU_MAX_QUEUES];
	struct { const xs_rt_fence *fence; uint64_t value, seq; unsigned hw; } signals[64];
	UINT nsignals;
	pthread_mutex_t submit_lock;   /* ExecuteCommandLists, Signal and Wait of every queue: the order above */
	d3d12_exec *execs;
	UINT nexecs, cap_execs;
} d3d12_device;

HRESULT d3d12_device_create(const XS12_DEVICE_DESC *desc, REFIID riid, void **out);
/* The device goes: D3D12CreateDevice no longer returns it (xs_d3d12_main.c). */
void d3d12_device_forget(d3d12_device *d);
const char *d3d12_breadcrumb_op_name(D3D12_AUTO_BREADCRUMB_OP op);
/* DRED: the allocator's command memory is reset or freed (kept: abandoned,
 * it stays until the device goes); no breadcrumb points into it after. */
void d3d12_dred_allocator_gone(d3d12_device *d, const struct d3d12_allocator *a, bool kept);
HRESULT d3d12_device_query(d3d12_device *d, REFIID riid, void **out);
/* Our device behind an ID3D12Device pointer a program passes, or NULL. */
d3d12_device *d3d12_device_from_iface(ID3D12Device *iface);
/* XS12_PROFILE: writes the profile at the device's release (xs_d3d12_profile.c). */
void d3d12_profile_release(d3d12_device *d);
static inline void d3d12_device_addref(d3d12_device *d)
{
	ID3D12Device5_AddRef(&d->iface);
}
static inline void d3d12_device_release(d3d12_device *d)
{
	ID3D12Device5_Release(&d->iface);
}
/* Debug-layer message (and stderr without a callback); no-op without the
 * debug layer unless severity is ERROR or worse and stderr is wanted. */
void d3d12_message(d3d12_device *d, xs_rt_msg_id id, const char *fmt, ...) XS_PRINTF(3, 4);
/* The D3D12_MESSAGE_ID of a row of the message table. */
D3D12_MESSAGE_ID d3d12_message_id(xs_rt_msg_id id);
/* The same for a runtime error that carries its message ID. */
void d3d12_message_err(d3d12_device *d, const xs_err *e);
/* HRESULT for a runtime status. */
HRESULT d3d12_hresult(xs_status st);
/* A removal's reason: DEVICE_HUNG for hangs and deadlocks, DEVICE_RESET
 * for faults and illegal instructions (docs/d3d12.md). */
HRESULT d3d12_device_removed_reason(const d3d12_device *d);
/* After a removal: the DRED output and the text report. */
void d3d12_device_note_removal(d3d12_device *d);
HRESULT d3d12_info_queue_init(d3d12_info_queue *q);
void d3d12_info_queue_fini(d3d12_info_queue *q);
void d3d12_info_queue_add(d3d12_device *d, D3D12_MESSAGE_CATEGORY cat, D3D12_MESSAGE_SEVERITY sev,
			  D3D12_MESSAGE_ID id, const char *text);
extern const ID3D12InfoQueue1Vtbl d3d12_info_queue_vtbl;
extern const ID3D12DeviceRemovedExtendedData2Vtbl d3d12_dred_vtbl;

/* ---- resources --------------------------------------------------------------------- */

typedef struct d3d12_resource {
	ID3D12Resource2 iface;
	d3d12_object obj;
	D3D12_RESOURCE_DESC desc;
	D3D12_HEAP_PROPERTIES heap;
	D3D12_HEAP_FLAGS heap_flags;
	uint64_t va;
	uint64_t size;                 /* bytes of GPU memory: Width, or a texture's rows */
	uint64_t pitch;                /* textures: bytes per row (linear, 256-aligned) */
	const struct d3d12_format *fmt; /* textures: the format (xs_d3d12_format.h) */
	uint8_t *host;                 /* UPLOAD / READBACK: the mapping Map returns */
	uint32_t map_count;
	uint64_t last_use_seq[XS_GPU_MAX_QUEUES]; /* the last submission that used it, per hardware queue */
} d3d12_resource;

HRESULT d3d12_resource_create_committed(d3d12_device *d, const D3D12_HEAP_PROPERTIES *heap, D3D12_HEAP_FLAGS flags,
					const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES state, REFIID riid,
					void **out);
d3d12_resource *d3d12_resource_from_iface(ID3D12Resource *iface);
struct d3d12_format;
/* A 2D texture description xs12 takes (a message naming the member if not). */
bool d3d12_texture_desc_check(d3d12_device *d, const D3D12_RESOURCE_DESC *desc, const char *method,
			      const struct d3d12_format **out);

/* ---- descriptor heaps and views (xs_d3d12_heap.c) --------------------------------- */

#define D3D12_VIEW_STRIDE 64u           /* GetDescriptorHandleIncrementSize of RTV and DSV heaps */
enum { D3D12_VIEW_RTV = 0x56545200u, D3D12_VIEW_DSV = 0x56534400u, D3D12_VIEW_NULL = 1 };

/* A render-target or depth-stencil view: what a descriptor handle points at. */
typedef struct d3d12_view {
	uint32_t kind;                  /* D3D12_VIEW_RTV / _DSV; 0: no view (never written, or refused) */
	uint32_t width, height;
	const struct d3d12_format *fmt;
	d3d12_resource *res;            /* not referenced: D3D12's descriptors hold no reference */
	uint64_t va, pitch;
} d3d12_view;

HRESULT d3d12_descriptor_heap_create(d3d12_device *d, const D3D12_DESCRIPTOR_HEAP_DESC *desc, REFIID riid, void **out);
UINT d3d12_descriptor_increment(D3D12_DESCRIPTOR_HEAP_TYPE type);
void STDMETHODCALLTYPE d3d12_device_CreateRenderTargetView(ID3D12Device5 *This, ID3D12Resource *res,
							   const D3D12_RENDER_TARGET_VIEW_DESC *desc,
							   D3D12_CPU_DESCRIPTOR_HANDLE h);
void STDMETHODCALLTYPE d3d12_device_CreateDepthStencilView(ID3D12Device5 *This, ID3D12Resource *res,
							   const D3D12_DEPTH_STENCIL_VIEW_DESC *desc,
							   D3D12_CPU_DESCRIPTOR_HANDLE h);
/* The view a handle holds, if of that kind (NULL: none, a null view, or another kind). */
const d3d12_view *d3d12_view_get(D3D12_CPU_DESCRIPTOR_HANDLE h, uint32_t kind);

/* ---- root signatures ----------------------------------------------------------------- */

typedef struct d3d12_root_param {
	D3D12_ROOT_PARAMETER_TYPE type;  /* 32BIT_CONSTANTS, CBV, SRV, UAV (DESCRIPTOR_TABLE refused) */
	UINT reg, space, num32;
	D3D12_SHADER_VISIBILITY visibility;
} d3d12_root_param;

#define D3D12_MAX_ROOT_PARAMS 64

typedef struct d3d12_root_signature {
	ID3D12RootSignature iface;
	d3d12_object obj;
	d3d12_root_param params[D3D12_MAX_ROOT_PARAMS];
	UINT nparams;
	void *blob;
	size_t blob_size;
} d3d12_root_signature;

HRESULT d3d12_root_signature_create(d3d12_device *d, const void *blob, SIZE_T size, REFIID riid, void **out);
d3d12_root_signature *d3d12_root_signature_from_iface(ID3D12RootSignature *iface);
/* Parses a serialized root signature (DXBC with RTS0, or a bare RTS0). */
HRESULT d3d12_root_signature_parse(const void *blob, size_t size, d3d12_root_param *params, UINT *nparams,
				   char *why, size_t n);
/* Serializes a 1.0 / 1.1 description (D3D12SerializeRootSignature). */
HRESULT d3d12_root_signature_serialize(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc, ID3DBlob **blob,
				       ID3DBlob **error);

/* ---- pipelines ------------------------------------------------------------------------ */

/* Where a root parameter's value goes in the kernel's kernarg segment. */
typedef struct d3d12_arg_slot {
	UINT kernarg_offset, size;   /* bytes */
	const xs_kernel_arg *arg;
} d3d12_arg_slot;

/* A graphics pipeline's part (xs_d3d12_state_gfx.c): both shaders loaded,
 * and the registers a draw of it records. */
#define D3D12_MAX_INPUT_ELEMENTS 16
#define D3D12_MAX_VERTEX_SLOTS 16
#define D3D12_GFX_MAX_REGS 96

typedef struct d3d12_input_element {
	UINT slot, offset;             /* InputSlot, AlignedByteOffset (resolved) */
	uint32_t buf_format;           /* V# FORMAT (gfx10 buffer format) */
	UINT bytes;                    /* one element's bytes in its format */
	bool per_instance;
} d3d12_input_element;

typedef struct d3d12_gfx_pipeline {
	struct xs_gfx_shader *vs, *ps;
	uint64_t code_va;              /* one allocation: VS image, then PS image (256-aligned) */
	uint64_t vs_va, ps_va;         /* entry addresses */
	d3d12_input_element elems[D3D12_MAX_INPUT_ELEMENTS];
	UINT nelems;
	uint32_t sh_vs[4], sh_ps[4];   /* PGM_LO, PGM_HI, RSRC1, RSRC2 */
	struct { uint32_t reg, value; } ctx[D3D12_GFX_MAX_REGS]; /* context registers, in order */
	uint32_t nctx;
	DXGI_FORMAT rtv[8], dsv;
	UINT nrt;
	bool depth;                    /* depth test or write: needs a DSV of dsv */
	bool uses_scratch;             /* the VS or the PS */
	uint32_t vs_user_sgprs, ps_user_sgprs;
	bool pal;                      /* PAL ABI: 16-byte ring table in the code's 4 GiB window */
} d3d12_gfx_pipeline;

typedef struct d3d12_pipeline {
	ID3D12PipelineState iface;     /* lpVtbl -> the official part of an ID3D12PipelineStateXVtbl */
	d3d12_object obj;
	xs_rt_module *mod;
	const xs_codeobj_kernel *k;
	d3d12_root_signature *root;    /* AddRef'ed: the explicit one, or the embedded one */
	d3d12_arg_slot slots[D3D12_MAX_ROOT_PARAMS];
	UINT dynamic_lds_args[8], ndynamic_lds_args; /* kernarg offsets of __local pointer arguments */
	UINT block[3];                 /* the thread-group shape ([numthreads]) */
	uint64_t scratch_per_wave;     /* S1.11 */
	d3d12_gfx_pipeline *gfx;       /* a graphics pipeline (k and mod are NULL) */
} d3d12_pipeline;

HRESULT d3d12_pipeline_create_compute(d3d12_device *d, const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc, REFIID riid,
				      void **out);
d3d12_pipeline *d3d12_pipeline_from_iface(ID3D12PipelineState *iface);
/* The official vtable's object, for the graphics creator (xs_d3d12_state.c). */
d3d12_pipeline *d3d12_pipeline_alloc(d3d12_device *d);
HRESULT d3d12_pipeline_create_graphics(d3d12_device *d, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, REFIID riid,
				       void **out);
void d3d12_gfx_pipeline_free(d3d12_device *d, d3d12_gfx_pipeline *g);
/* CreatePipelineState (xs_d3d12_state_stream.c). */
HRESULT d3d12_pipeline_create_from_stream(d3d12_device *d, const D3D12_PIPELINE_STATE_STREAM_DESC *desc, REFIID riid,
					  void **out);
/* A code object (ELF, offload bundle) or an XS12_KERNEL_BYTECODE? */
bool d3d12_bytecode_is_code_object(const void *blob, size_t size);
/* The root signature a kernel's arguments give (CreateRootSignature from
 * shader bytecode, as D3D12 takes an embedded root signature). */
HRESULT d3d12_root_signature_from_code(d3d12_device *d, const void *code, size_t size, REFIID riid, void **out);
HRESULT STDMETHODCALLTYPE d3d12_pipeline_GetInformationX(ID3D12PipelineState *This,
							 D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE type, UINT flags,
							 ID3DBlob **blob);

/* ---- command signatures ------------------------------------------------------------- */

typedef struct d3d12_command_signature {
	ID3D12CommandSignature iface;
	d3d12_object obj;
	D3D12_INDIRECT_ARGUMENT_DESC args[8];
	UINT nargs, stride;
	UINT offset_of[8];             /* byte offset of each argument in a record */
	d3d12_root_signature *root;
} d3d12_command_signature;

HRESULT d3d12_command_signature_create(d3d12_device *d, const D3D12_COMMAND_SIGNATURE_DESC *desc,
				       ID3D12RootSignature *root, REFIID riid, void **out);
d3d12_command_signature *d3d12_command_signature_from_iface(ID3D12CommandSignature *iface);

/* ---- fences ----------------------------------------------------------------------------- */

typedef struct d3d12_fence {
	ID3D12Fence1 iface;
	d3d12_object obj;
	xs_rt_fence *rt;
	D3D12_FENCE_FLAGS flags;
} d3d12_fence;

HRESULT d3d12_fence_create(d3d12_device *d, UINT64 initial, D3D12_FENCE_FLAGS flags, REFIID riid, void **out);
d3d12_fence *d3d12_fence_from_iface(ID3D12Fence *iface);

/* ---- command allocators and lists --------------------------------------------------- */

typedef struct d3d12_allocator {
	ID3D12CommandAllocator iface;
	d3d12_object obj;
	D3D12_COMMAND_LIST_TYPE type;
	xs_rt_cmdmem mem;
	struct d3d12_list *recording;  /* the open list recording into it, if any */
	/* executions of lists recorded from it: (hardware queue, sequence) */
	uint64_t last_seq[XS_GPU_MAX_QUEUES];
} d3d12_allocator;

HRESULT d3d12_allocator_create(d3d12_device *d, D3D12_COMMAND_LIST_TYPE type, REFIID riid, void **out);
d3d12_allocator *d3d12_allocator_from_iface(ID3D12CommandAllocator *iface);

/* One dispatch's scratch use, for the S1.10 reuse check at submission. */
typedef struct d3d12_scratch_use {
	uint64_t va, size;             /* the memory the ring's V# points at */
	uint32_t per_wave, slots;      /* its layout: COMPUTE_TMPRING_SIZE */
	uint32_t epoch;                /* full flushes (barriers) of its list before it (S1.7) */
	bool default_ring;
	unsigned hw;                   /* hardware queue */
	uint64_t seq;                  /* its submission's completion sequence (0: not submitted) */
	uint32_t list_id;
	char who[160];
} d3d12_scratch_use;

/* S4: the graphics shader limits as registers (xs_d3d12_limits.c). */
/* The hardware stages with limit registers, in this order. */
enum { D3D12_HW_VS, D3D12_HW_PS, D3D12_HW_GS, D3D12_HW_HS, D3D12_HW_STAGES };

typedef struct d3d12_gfx_limits_regs {
	uint32_t rsrc3[D3D12_HW_STAGES];   /* SPI_SHADER_PGM_RSRC3_*: CU_EN, WAVE_LIMIT, LOCK_LOW_THRESHOLD */
	uint32_t rsrc4[D3D12_HW_STAGES];   /* SPI_SHADER_PGM_RSRC4_*: CU_EN of CUs 16..31 */
	uint32_t late_alloc_limit;         /* SPI_SHADER_LATE_ALLOC_VS.LIMIT (wave64 waves per SA) */
} d3d12_gfx_limits_regs;

typedef struct d3d12_list {
	ID3D12GraphicsCommandList6 iface; /* lpVtbl -> the official part of an ID3D12GraphicsCommandList6XVtbl */
	d3d12_object obj;
	D3D12_COMMAND_LIST_TYPE type;
	d3d12_allocator *allocator;
	xs_pm4_builder pm4;
	bool open;
	xs_err err;                    /* the first broken rule: Close fails with it */
	uint64_t pm4_va;               /* at Close: the PM4 in the allocator's memory */
	uint32_t ndispatches;
	uint32_t id;
	/* state */
	d3d12_pipeline *pso;
	struct d3d12_state_object *rtpso; /* SetPipelineState1 (xs_d3d12_command_rays.c) */
	d3d12_root_signature *root;
	uint8_t root_args[D3D12_MAX_ROOT_PARAMS][8 * 64]; /* each parameter's current bytes */
	uint64_t root_set;             /* bit per parameter set */
	bool implicit_root_said;       /* the ROOT_SIGNATURE_IMPLICIT warning was given */
	xs_rt_ring compute_ring, graphics_ring;   /* SetShaderScratchSpaceX (S1.14: from the default) */
	D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS launch; /* S3.7: lasts until the next call */
	bool launch_set;
	/* The last Dispatch's launch, kept for the next ones. launch_kept: it
	 * holds for the list's state (pipeline, launch parameters, compute
	 * ring), so a Dispatch with all root arguments set records it again
	 * (xs_rt_record_again); every call that changes that state clears it. */
	xs_rt_launch_tmpl launch_tmpl;
	bool launch_kept;
	/* DRED breadcrumbs and the S1.10 uses */
	D3D12_AUTO_BREADCRUMB_OP *ops;
	uint32_t nops, cap_ops;
	volatile UINT *crumb;          /* DRED: the GPU writes the ops completed here (end of pipe) */
	uint64_t crumb_va;
	d3d12_scratch_use *uses;
	uint32_t nuses, cap_uses;
	uint32_t flush_epoch;          /* barriers recorded so far (S1.7) */
	/* debug layer: GPU addresses the list's work reads or writes (root
	 * views, copies, indirect buffers), for RESOURCE_IN_USE at release */
	uint64_t *used_va;
	uint32_t nused, cap_used;
	/* S4: the list's graphics shader limits (the defaults until
	 * SetGraphicsShaderLimitsX), recorded at the call or the first draw;
	 * late_alloc_now: the LIMIT last recorded (UINT32_MAX: none yet) */
	d3d12_gfx_limits_regs gfx_limits;
	bool gfx_limits_explicit;
	uint32_t late_alloc_now;
	/* graphics state (xs_d3d12_command_gfx.c): D3D12 binds graphics root
	 * arguments apart from compute ones */
	d3d12_root_signature *gfx_root;
	uint8_t gfx_root_args[D3D12_MAX_ROOT_PARAMS][8 * 64];
	uint64_t gfx_root_set;
	D3D12_PRIMITIVE_TOPOLOGY topology;
	D3D12_VERTEX_BUFFER_VIEW vbs[D3D12_MAX_VERTEX_SLOTS];
	D3D12_INDEX_BUFFER_VIEW ibv;
	D3D12_VIEWPORT viewport;
	D3D12_RECT scissor;
	bool viewport_set, scissor_set;
	d3d12_view rt[8], ds;          /* OMSetRenderTargets copies the views */
	UINT nrt;
	bool has_ds;
	uint32_t ndraws;
} d3d12_list;

HRESULT d3d12_list_create(d3d12_device *d, D3D12_COMMAND_LIST_TYPE type, ID3D12CommandAllocator *alloc,
			  ID3D12PipelineState *pso, REFIID riid, void **out);
d3d12_list *d3d12_list_from_iface(ID3D12GraphicsCommandList6 *iface);
d3d12_list *d3d12_list_from_command_list(ID3D12CommandList *iface);
/* Records a broken rule: the message now, Close fails later. */
void d3d12_list_error(d3d12_list *l, xs_rt_msg_id id, const char *fmt, ...) XS_PRINTF(3, 4);
void d3d12_list_error_err(d3d12_list *l, const xs_err *e);
/* DRED: the op in the list's breadcrumbs (and, with DRED on, the GPU's
 * count of them after its work). Inline: every recorded op notes one. */
void d3d12_list_breadcrumb_add(d3d12_list *l, D3D12_AUTO_BREADCRUMB_OP op);
static inline void d3d12_list_breadcrumb(d3d12_list *l, D3D12_AUTO_BREADCRUMB_OP op)
{
	if (l->nops < l->cap_ops && !l->crumb)
		l->ops[l->nops++] = op;
	else
		d3d12_list_breadcrumb_add(l, op);
}
/* The debug layer notes an address the list's work uses (nothing without
 * the debug layer: inline, as a Dispatch asks for each root view). */
void d3d12_list_note_use(d3d12_list *l, uint64_t va);
static inline void d3d12_list_use(d3d12_list *l, uint64_t va)
{
	if (l->obj.device->debug)
		d3d12_list_note_use(l, va);
}
/* False (the list fails to Close) for a dispatch on a COPY list. */
bool d3d12_list_can_dispatch(d3d12_list *l, const char *method);
/* A dispatch with the list's state: direct or indirect (ExecuteIndirect). */
void d3d12_list_dispatch(d3d12_list *l, UINT x, UINT y, UINT z, uint64_t dims_va, uint64_t launch_va,
			 const xs_rt_kernarg_copy *copies, uint32_t ncopies);
/* Acceleration structures (xs_d3d12_accel.c). */
void STDMETHODCALLTYPE d3d12_device_GetRaytracingAccelerationStructurePrebuildInfo(
	ID3D12Device5 *This, const D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS *in,
	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_PREBUILD_INFO *info);
void STDMETHODCALLTYPE d3d12_list_BuildRaytracingAccelerationStructure(
	ID3D12GraphicsCommandList6 *This, const D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC *desc, UINT ninfo,
	const D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC *infos);
void STDMETHODCALLTYPE d3d12_list_EmitRaytracingAccelerationStructurePostbuildInfo(
	ID3D12GraphicsCommandList6 *This, const D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC *desc, UINT n,
	const D3D12_GPU_VIRTUAL_ADDRESS *src);
void STDMETHODCALLTYPE d3d12_list_CopyRaytracingAccelerationStructure(ID3D12GraphicsCommandList6 *This,
								      D3D12_GPU_VIRTUAL_ADDRESS dst, D3D12_GPU_VIRTUAL_ADDRESS src,
								      D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE mode);
/* A dispatch's scratch use: S1.7 now (false: refused), S1.10 at submission. */
bool d3d12_list_add_scratch_use(d3d12_list *l, const xs_rt_launch_info *info, const char *kernel);
/* Releases the list's ray-tracing state object (xs_d3d12_command_rays.c). */
void d3d12_list_drop_rays(d3d12_list *l);
/* Graphics state and draws (xs_d3d12_command_gfx.c). */
void d3d12_list_gfx_reset(d3d12_list *l);
/* A draw with the list's state; args_va != 0: ExecuteIndirect's arguments there. */
void d3d12_list_draw(d3d12_list *l, bool indexed, UINT count, UINT instances, UINT start, INT base_vertex,
		     UINT start_instance, uint64_t args_va);
#define D3D12_GFX_METHODS(X) \
	X(IASetPrimitiveTopology, (ID3D12GraphicsCommandList6 *This, D3D12_PRIMITIVE_TOPOLOGY t)) \
	X(IASetVertexBuffers, (ID3D12GraphicsCommandList6 *This, UINT start, UINT n, const D3D12_VERTEX_BUFFER_VIEW *views)) \
	X(IASetIndexBuffer, (ID3D12GraphicsCommandList6 *This, const D3D12_INDEX_BUFFER_VIEW *v)) \
	X(RSSetViewports, (ID3D12GraphicsCommandList6 *This, UINT n, const D3D12_VIEWPORT *vp)) \
	X(RSSetScissorRects, (ID3D12GraphicsCommandList6 *This, UINT n, const D3D12_RECT *r)) \
	X(OMSetRenderTargets, (ID3D12GraphicsCommandList6 *This, UINT n, const D3D12_CPU_DESCRIPTOR_HANDLE *rts, \
			       BOOL single_range, const D3D12_CPU_DESCRIPTOR_HANDLE *ds)) \
	X(SetGraphicsRootSignature, (ID3D12GraphicsCommandList6 *This, ID3D12RootSignature *rs)) \
	X(SetGraphicsRoot32BitConstant, (ID3D12GraphicsCommandList6 *This, UINT index, UINT v, UINT offset)) \
	X(SetGraphicsRoot32BitConstants, (ID3D12GraphicsCommandList6 *This, UINT index, UINT n, const void *data, \
					  UINT offset)) \
	X(SetGraphicsRootConstantBufferView, (ID3D12GraphicsCommandList6 *This, UINT index, D3D12_GPU_VIRTUAL_ADDRESS va)) \
	X(SetGraphicsRootShaderResourceView, (ID3D12GraphicsCommandList6 *This, UINT index, D3D12_GPU_VIRTUAL_ADDRESS va)) \
	X(SetGraphicsRootUnorderedAccessView, (ID3D12GraphicsCommandList6 *This, UINT index, D3D12_GPU_VIRTUAL_ADDRESS va)) \
	X(SetGraphicsRootDescriptorTable, (ID3D12GraphicsCommandList6 *This, UINT index, D3D12_GPU_DESCRIPTOR_HANDLE h)) \
	X(DrawInstanced, (ID3D12GraphicsCommandList6 *This, UINT count, UINT instances, UINT start, UINT start_instance)) \
	X(DrawIndexedInstanced, (ID3D12GraphicsCommandList6 *This, UINT count, UINT instances, UINT start, \
				 INT base_vertex, UINT start_instance))
#define D3D12_GFX_DECL(name, args) void STDMETHODCALLTYPE d3d12_list_##name args;
D3D12_GFX_METHODS(D3D12_GFX_DECL)
#undef D3D12_GFX_DECL
/* Texture copies and clears (xs_d3d12_command_copy.c). */
void STDMETHODCALLTYPE d3d12_list_CopyTextureRegion(ID3D12GraphicsCommandList6 *This,
						     const D3D12_TEXTURE_COPY_LOCATION *dst, UINT dx, UINT dy, UINT dz,
						     const D3D12_TEXTURE_COPY_LOCATION *src, const D3D12_BOX *box);
void STDMETHODCALLTYPE d3d12_list_ClearRenderTargetView(ID3D12GraphicsCommandList6 *This, D3D12_CPU_DESCRIPTOR_HANDLE h,
							const FLOAT rgba[4], UINT nrects, const D3D12_RECT *rects);
void STDMETHODCALLTYPE d3d12_list_ClearDepthStencilView(ID3D12GraphicsCommandList6 *This, D3D12_CPU_DESCRIPTOR_HANDLE h,
							D3D12_CLEAR_FLAGS flags, FLOAT depth, UINT8 stencil, UINT nrects,
							const D3D12_RECT *rects);
/* The Xbox methods (xs_d3d12_command_xbox.c; DispatchRaysX: xs_d3d12_command_rays.c). */
extern const ID3D12GraphicsCommandList6XVtbl d3d12_list_vtbl;
void STDMETHODCALLTYPE d3d12_list_SetShaderScratchSpaceX(ID3D12GraphicsCommandList6 *This,
							 D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS flags, D3D12_GPU_VIRTUAL_ADDRESS dst,
							 UINT64 size, UINT per_wave);
void STDMETHODCALLTYPE d3d12_list_DispatchRaysX(ID3D12GraphicsCommandList6 *This, const D3D12XBOX_DISPATCH_RAYS_DESC *d);
void STDMETHODCALLTYPE d3d12_list_SetComputeShaderLaunchParametersX(
	ID3D12GraphicsCommandList6 *This, const D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS *p);
void STDMETHODCALLTYPE d3d12_list_SetGraphicsShaderLimitsX(ID3D12GraphicsCommandList6 *This,
							   const D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC *d);
/* The launch parameters' rules (S3.2-S3.5, and the kernel's own of S3.7). */
bool d3d12_check_launch_parameters(d3d12_device *d, const D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS *p,
				   xs_err *e);

/* ---- queues --------------------------------------------------------------------------- */

typedef struct d3d12_queue {
	ID3D12CommandQueue iface;
	d3d12_object obj;
	D3D12_COMMAND_QUEUE_DESC desc;
	unsigned hw;                   /* hardware queue: 0 direct, 1..3 async compute */
	char label[64];
} d3d12_queue;

HRESULT d3d12_queue_create(d3d12_device *d, const D3D12_COMMAND_QUEUE_DESC *desc, REFIID riid, void **out);

/* ---- executions' statistics (submit_lock held but for forget/fini) ------------- */

xs_gpu_dispatch_result *d3d12_exec_begin(d3d12_device *d, uint32_t list_id, uint32_t n);
void d3d12_exec_submitted(d3d12_device *d, unsigned hw, uint64_t seq);
void d3d12_exec_failed(d3d12_device *d);
void d3d12_exec_forget_list(d3d12_device *d, uint32_t list_id);
void d3d12_exec_fini(d3d12_device *d);

/* ---- query heaps (timestamps) ----------------------------------------------------- */

typedef struct d3d12_query_heap {
	ID3D12QueryHeap iface;
	d3d12_object obj;
	D3D12_QUERY_HEAP_DESC desc;
	uint64_t va;                   /* Count x 8 bytes of GPU memory */
} d3d12_query_heap;

HRESULT d3d12_query_heap_create(d3d12_device *d, const D3D12_QUERY_HEAP_DESC *desc, REFIID riid, void **out);
void STDMETHODCALLTYPE d3d12_list_BeginQuery(ID3D12GraphicsCommandList6 *This, ID3D12QueryHeap *heap,
					      D3D12_QUERY_TYPE type, UINT index);
void STDMETHODCALLTYPE d3d12_list_EndQuery(ID3D12GraphicsCommandList6 *This, ID3D12QueryHeap *heap, D3D12_QUERY_TYPE type,
					    UINT index);
void STDMETHODCALLTYPE d3d12_list_ResolveQueryData(ID3D12GraphicsCommandList6 *This, ID3D12QueryHeap *heap,
						    D3D12_QUERY_TYPE type, UINT first, UINT n, ID3D12Resource *dst,
						    UINT64 offset);

/* ---- blobs ------------------------------------------------------------------------------- */

HRESULT d3d12_blob_create(const void *data, size_t size, ID3DBlob **out);

/* ---- the global debug objects (ID3D12Debug, DRED settings) ----------------------------- */

extern bool d3d12_debug_layer_requested;
extern bool d3d12_dred_breadcrumbs_requested, d3d12_dred_page_faults_requested;
HRESULT d3d12_debug_get_interface(REFIID riid, void **out);

#endif
