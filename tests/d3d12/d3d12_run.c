/*
 * d3d12_run — runs one kernel of a code object through the D3D12 API, as a
 * title does, with the argument syntax of pocl_run and `xs12 run`
 * (tools/xs_argspec.h). tests/d3d12/pocl_diff.py compares its outputs with
 * PoCL's, byte for byte:
 *
 *   d3d12_run FILE.hsaco --groups X[,Y[,Z]] [--block X[,Y[,Z]]] [--kernel NAME]
 *             [--arg SPEC]... [--queue direct|compute] [--scratch SLOTS] [--scratch-null]
 *             [--lds BYTES] [--indirect] [--debug]
 *
 * The pipeline is CreateComputePipelineState of the code object, with the
 * root signature CreateRootSignature makes of the same bytes: global
 * pointers are root SRVs (const) or UAVs, in order, by-value arguments root
 * 32-bit constants. Buffers are DEFAULT-heap resources filled by copies from
 * UPLOAD buffers and read back through READBACK ones, with transition
 * barriers, as D3D12 wants them.
 *
 * --block      the group shape; when it is not the pipeline's own ([numthreads]:
 *              the kernel's reqd_work_group_size, else 64x1x1, or fewer when
 *              .max_flat_workgroup_size is), SetComputeShaderLaunchParametersX
 *              NUM_THREADS gives it (SPEC S3.4). Default: the pipeline's shape.
 * --queue      the list's and queue's type (default direct).
 * --scratch N  SetShaderScratchSpaceX(COMPUTE) with a ring of N slots of the
 *              GetInformationX per-wave size (S1.11, S1.12: the documented 8).
 *              Without it the list keeps the driver's default scratch (S1.8).
 * --scratch-null  then SetShaderScratchSpaceX(COMPUTE, 0, 0, 0): back to the
 *              driver's default (S1.4).
 * --lds B      launch parameters LDSSize = B / 512 (S3.3): the group's whole
 *              LDS, static included; what is above the static LDS goes to the
 *              __local pointer arguments (S3.7). A local:BYTES spec with BYTES
 *              > 0 and no --lds sets LDSSize to the static LDS + BYTES; local:0
 *              takes what --lds leaves.
 * --indirect   the dispatch through ExecuteIndirect: a command signature of
 *              [launch parameters (S3.1), DISPATCH], its one record in a buffer.
 * --debug      the debug layer on; a message of severity ERROR or worse it stored
 *              is printed and the exit code is 3.
 *
 * Prints one line of what ran and what the GPU measured
 * (XS12GetDispatchStatistics) as key=value pairs. Exit: 0 ok, 1 failure (a
 * D3D12 call, a removal, I/O), 2 usage error, 3 debug-layer error.
 */
#define COBJMACROS
#include <xs12/d3d12_xs.h>

#include "codeobj/xs_codeobj.h"
#include "xs_argspec.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 64

enum { EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_DEBUG = 3 };

#define LAUNCH_LDS D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_LDS_SIZE
#define LAUNCH_SHAPE D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_NUM_THREADS

static void usage(FILE *to)
{
	fprintf(to,
		"usage: d3d12_run FILE.hsaco --groups X[,Y[,Z]] [--block X[,Y[,Z]]] [--kernel NAME]\n"
		"                 [--arg SPEC]... [--queue direct|compute] [--scratch SLOTS] [--scratch-null]\n"
		"                 [--lds BYTES] [--indirect] [--debug]\n"
		"  runs one kernel through the D3D12 API (SPEC S1 scratch, S3 launch parameters).\n"
		"SPEC (one per explicit kernel argument, in order):\n"
		"  i32:V u32:V i64:V u64:V f32:V f64:V   by-value (root 32-bit constants)\n"
		"  in:FILE  out:FILE:BYTES  inout:FILE:OUTFILE   buffers (root SRV or UAV)\n"
		"  local:BYTES                             a __local pointer (LDS of --lds)\n"
		"exit: 0 ok, 1 failure, 2 usage error, 3 debug-layer error\n");
}

__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("d3d12_run: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return EXIT_USAGE;
}

/* "X[,Y[,Z]]", each 1 .. 65535; missing dimensions are 1. */
static int parse_dims(const char *opt, const char *s, UINT d[3])
{
	d[0] = d[1] = d[2] = 1;
	const char *p = s;
	for (int n = 0;; n++) {
		char *end;
		if (n == 3 || *p < '0' || *p > '9')
			return usage_error("%s '%s': expected X[,Y[,Z]] of positive integers", opt, s);
		unsigned long v = strtoul(p, &end, 10);
		if (v == 0 || v > 65535)
			return usage_error("%s '%s': each size must be 1 .. 65535", opt, s);
		d[n] = (UINT)v;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			return usage_error("%s '%s': expected X[,Y[,Z]] of positive integers", opt, s);
		p = end + 1;
	}
}

static int parse_uint(const char *opt, const char *s, unsigned long max, UINT *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return usage_error("%s '%s': expected a number", opt, s);
	unsigned long v = strtoul(s, &end, 10);
	if (*end || v > max)
		return usage_error("%s '%s': expected a number up to %lu", opt, s, max);
	*out = (UINT)v;
	return 0;
}

/* ---- the D3D12 objects, all released at the end -------------------------------------------- */

#define MAX_RES (3 * MAX_ARGS + 4)

typedef struct run {
	ID3D12Device *dev;
	ID3D12InfoQueue *iq;
	ID3D12CommandQueue *queue;
	ID3D12CommandAllocator *alloc;
	ID3D12GraphicsCommandList6 *list;
	ID3D12Fence *fence;
	ID3D12RootSignature *rs;
	ID3D12PipelineState *pso;
	ID3D12CommandSignature *sig;
	ID3D12Resource *res[MAX_RES];
	unsigned nres;
} run;

static void run_release(run *r)
{
	for (unsigned i = 0; i < r->nres; i++)
		ID3D12Resource_Release(r->res[i]);
	if (r->sig)
		ID3D12CommandSignature_Release(r->sig);
	if (r->pso)
		ID3D12PipelineState_Release(r->pso);
	if (r->rs)
		ID3D12RootSignature_Release(r->rs);
	if (r->fence)
		ID3D12Fence_Release(r->fence);
	if (r->list)
		ID3D12GraphicsCommandList6_Release(r->list);
	if (r->alloc)
		ID3D12CommandAllocator_Release(r->alloc);
	if (r->queue)
		ID3D12CommandQueue_Release(r->queue);
	if (r->iq)
		ID3D12InfoQueue_Release(r->iq);
	if (r->dev)
		ID3D12Device_Release(r->dev);
	memset(r, 0, sizeof(*r));
}

static bool failed(HRESULT hr, const char *what)
{
	if (SUCCEEDED(hr))
		return false;
	fprintf(stderr, "d3d12_run: %s failed: HRESULT 0x%08x\n", what, (unsigned)hr);
	return true;
}

static ID3D12Resource *buffer(run *r, D3D12_HEAP_TYPE heap, UINT64 bytes, const char *what)
{
	D3D12_HEAP_PROPERTIES hp = { .Type = heap };
	D3D12_RESOURCE_DESC rd = {
		.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = bytes, .Height = 1, .DepthOrArraySize = 1,
		.MipLevels = 1, .SampleDesc = { 1, 0 }, .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
		.Flags = heap == D3D12_HEAP_TYPE_DEFAULT ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE,
	};
	D3D12_RESOURCE_STATES st = heap == D3D12_HEAP_TYPE_UPLOAD ? D3D12_RESOURCE_STATE_GENERIC_READ
				   : heap == D3D12_HEAP_TYPE_READBACK ? D3D12_RESOURCE_STATE_COPY_DEST
								      : D3D12_RESOURCE_STATE_COMMON;
	ID3D12Resource *res = NULL;
	if (r->nres == MAX_RES ||
	    failed(ID3D12Device_CreateCommittedResource(r->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd, st, NULL,
							&IID_ID3D12Resource, (void **)&res), what))
		return NULL;
	return r->res[r->nres++] = res;
}

/* An UPLOAD buffer holding bytes (zeros when data is NULL). */
static ID3D12Resource *upload(run *r, const void *data, UINT64 bytes, const char *what)
{
	ID3D12Resource *res = buffer(r, D3D12_HEAP_TYPE_UPLOAD, bytes, what);
	void *p;
	if (!res || failed(ID3D12Resource_Map(res, 0, NULL, &p), what))
		return NULL;
	if (data)
		memcpy(p, data, bytes);
	else
		memset(p, 0, bytes);
	ID3D12Resource_Unmap(res, 0, NULL);
	return res;
}

static void transition(run *r, ID3D12Resource *res, D3D12_RESOURCE_STATES from, D3D12_RESOURCE_STATES to)
{
	D3D12_RESOURCE_BARRIER b = { .Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION,
				     .Transition = { .pResource = res,
						     .Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES,
						     .StateBefore = from, .StateAfter = to } };
	ID3D12GraphicsCommandList6_ResourceBarrier(r->list, 1, &b);
}

static const char *severity_name(D3D12_MESSAGE_SEVERITY s)
{
	switch (s) {
	case D3D12_MESSAGE_SEVERITY_CORRUPTION: return "CORRUPTION";
	case D3D12_MESSAGE_SEVERITY_ERROR: return "ERROR";
	case D3D12_MESSAGE_SEVERITY_WARNING: return "WARNING";
	case D3D12_MESSAGE_SEVERITY_INFO: return "INFO";
	default: return "MESSAGE";
	}
}

/* Prints the stored messages (errors always, the rest when all is set);
 * returns how many were of severity ERROR or worse. Clears the queue. */
static unsigned report_messages(run *r, bool all)
{
	if (!r->iq)
		return 0;
	unsigned errors = 0;
	UINT64 k = ID3D12InfoQueue_GetNumStoredMessages(r->iq);
	for (UINT64 i = 0; i < k; i++) {
		SIZE_T len = 0;
		if (FAILED(ID3D12InfoQueue_GetMessage(r->iq, i, NULL, &len)) || !len)
			continue;
		D3D12_MESSAGE *m = malloc(len);
		if (!m)
			continue;
		if (SUCCEEDED(ID3D12InfoQueue_GetMessage(r->iq, i, m, &len))) {
			bool err = m->Severity <= D3D12_MESSAGE_SEVERITY_ERROR;
			errors += err;
			if (err || all)
				fprintf(stderr, "d3d12_run: debug layer %s (ID %d): %s\n", severity_name(m->Severity),
					(int)m->ID, m->pDescription);
		}
		free(m);
	}
	ID3D12InfoQueue_ClearStoredMessages(r->iq);
	return errors;
}

/* ---- main ------------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
	const char *kname = NULL, *groups_s = NULL, *block_s = NULL, *queue_s = "direct";
	const char *arg_texts[MAX_ARGS];
	xs_argspec specs[MAX_ARGS];
	unsigned nargs = 0;
	UINT scratch_slots = 0, lds_bytes = 0;
	bool scratch = false, scratch_null = false, lds_given = false, indirect = false, debug = false;
	int rc = EXIT_USAGE;
	char err[1024];
	uint8_t *code = NULL;
	size_t code_size = 0;
	xs_codeobj *co = NULL;
	run r;
	memset(&r, 0, sizeof(r));

	static const struct option longopts[] = {
		{ "kernel", required_argument, NULL, 'k' }, { "groups", required_argument, NULL, 'g' },
		{ "block", required_argument, NULL, 'b' },  { "arg", required_argument, NULL, 'a' },
		{ "queue", required_argument, NULL, 'q' },  { "scratch", required_argument, NULL, 's' },
		{ "lds", required_argument, NULL, 'l' },    { "indirect", no_argument, NULL, 'i' },
		{ "debug", no_argument, NULL, 'd' },        { "scratch-null", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'k': kname = optarg; break;
		case 'g': groups_s = optarg; break;
		case 'b': block_s = optarg; break;
		case 'q': queue_s = optarg; break;
		case 'i': indirect = true; break;
		case 'd': debug = true; break;
		case 'n': scratch_null = true; break;
		case 's':
			if (parse_uint("--scratch", optarg, 1u << 20, &scratch_slots) || !scratch_slots) {
				rc = scratch_slots ? EXIT_USAGE : usage_error("--scratch: at least 1 slot");
				goto out;
			}
			scratch = true;
			break;
		case 'l':
			if (parse_uint("--lds", optarg, 511 * 512, &lds_bytes))
				goto out;
			if (lds_bytes % 512) {
				rc = usage_error("--lds %u: LDSSize counts 512-byte units (S3.3)", lds_bytes);
				goto out;
			}
			lds_given = true;
			break;
		case 'a':
			if (nargs == MAX_ARGS) {
				rc = usage_error("more than %d --arg", MAX_ARGS);
				goto out;
			}
			if (xs_argspec_parse(optarg, &specs[nargs], err, sizeof(err)) != 0) {
				rc = usage_error("%s", err);
				goto out;
			}
			arg_texts[nargs++] = optarg;
			break;
		case 'h':
			usage(stdout);
			rc = 0;
			goto out;
		default:
			usage(stderr);
			goto out;
		}
	}
	if (optind != argc - 1) {
		rc = usage_error(optind >= argc ? "missing FILE.hsaco" : "more than one code object");
		usage(stderr);
		goto out;
	}
	if (!groups_s) {
		rc = usage_error("--groups is required");
		goto out;
	}
	D3D12_COMMAND_LIST_TYPE type;
	if (!strcmp(queue_s, "direct"))
		type = D3D12_COMMAND_LIST_TYPE_DIRECT;
	else if (!strcmp(queue_s, "compute"))
		type = D3D12_COMMAND_LIST_TYPE_COMPUTE;
	else {
		rc = usage_error("--queue '%s': direct or compute", queue_s);
		goto out;
	}
	UINT groups[3], block[3];
	if (parse_dims("--groups", groups_s, groups) || (block_s && parse_dims("--block", block_s, block)))
		goto out;
	for (unsigned i = 0; i < nargs; i++)
		if (xs_argspec_load(&specs[i], err, sizeof(err)) != 0) {
			rc = usage_error("%s", err);
			goto out;
		}

	/* The kernel's metadata: its arguments and the pipeline's own shape. */
	const char *path = argv[optind];
	xs_err e;
	if (xs_read_file(path, 1u << 30, &code, &code_size, &e) || xs_codeobj_parse(code, code_size, &co, &e)) {
		rc = usage_error("%s: %s", path, e.msg);
		goto out;
	}
	const xs_codeobj_kernel *k = kname ? xs_codeobj_find(co, kname) : co->nkernels == 1 ? &co->kernels[0] : NULL;
	if (!k) {
		if (kname)
			rc = usage_error("%s: no kernel named '%s'", path, kname);
		else
			rc = usage_error("%s: %u kernels: name one with --kernel", path, co->nkernels);
		goto out;
	}
	const xs_kernel_info *ki = &k->info;
	UINT shape[3] = { 1, 1, 1 };
	if (k->reqd_workgroup_size[0])
		memcpy(shape, k->reqd_workgroup_size, sizeof(shape));
	else
		shape[0] = ki->max_flat_workgroup_size < 64 ? ki->max_flat_workgroup_size : 64;
	if (!block_s)
		memcpy(block, shape, sizeof(block));

	/* Each spec against its argument; root parameter i is explicit argument i. */
	int param_of[MAX_ARGS];
	bool srv[MAX_ARGS];
	unsigned nexplicit = 0, nparams = 0;
	uint64_t local_bytes = 0;
	for (uint32_t i = 0; i < ki->num_args; i++) {
		const xs_kernel_arg *a = &ki->args[i];
		if (a->kind == XS_ARG_HIDDEN)
			continue;
		if (nexplicit == nargs) {
			nexplicit++;
			continue;
		}
		const xs_argspec *s = &specs[nexplicit];
		const char *want = NULL;
		param_of[nexplicit] = -1;
		if (a->kind == XS_ARG_GLOBAL_BUFFER) {
			if (!xs_argspec_is_buffer(s))
				want = "in:, out: or inout:";
			srv[nexplicit] = k->arg_const[i];
			param_of[nexplicit] = (int)nparams++;
		} else if (a->kind == XS_ARG_DYNAMIC_SHARED_POINTER) {
			if (s->kind != XS_AS_LOCAL)
				want = "local:BYTES";
			local_bytes += s->bytes;
		} else if (a->kind == XS_ARG_BY_VALUE) {
			if (xs_argspec_value_size(s) != a->size)
				want = a->size == 4 ? "a 4-byte by-value spec (i32: u32: f32:)"
				       : a->size == 8 ? "an 8-byte by-value spec (i64: u64: f64:)"
						      : "a by-value spec of its size";
			param_of[nexplicit] = (int)nparams++;
		} else {
			want = "an argument kind no root parameter gives";
		}
		if (want) {
			rc = usage_error("--arg '%s': argument %u '%s' is '%s' (%u bytes); it needs %s", arg_texts[nexplicit],
					 nexplicit, a->name, a->type_name, a->size, want);
			goto out;
		}
		nexplicit++;
	}
	if (nexplicit != nargs) {
		rc = usage_error("kernel '%s' takes %u arguments, %u --arg given", ki->name, nexplicit, nargs);
		goto out;
	}

	/* The launch parameters (S3): the shape when it is not the pipeline's,
	 * the LDS of --lds (or of the local: specs). */
	D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS lp;
	memset(&lp, 0, sizeof(lp));
	if (memcmp(block, shape, sizeof(block))) {
		lp.Flags |= LAUNCH_SHAPE;
		lp.NumThreadX = block[0];
		lp.NumThreadY = block[1];
		lp.NumThreadZ = block[2];
	}
	uint64_t local_start = (ki->group_segment_fixed_size + 15u) & ~15u;
	if (lds_given) {
		if (local_bytes && local_start + local_bytes > lds_bytes) {
			rc = usage_error("--lds %u leaves %llu bytes above the kernel's %u of static LDS; the local: specs "
					 "ask for %llu", lds_bytes,
					 (unsigned long long)(lds_bytes > local_start ? lds_bytes - local_start : 0),
					 ki->group_segment_fixed_size, (unsigned long long)local_bytes);
			goto out;
		}
		lp.Flags |= LAUNCH_LDS;
		lp.LDSSize = lds_bytes / 512;
	} else if (local_bytes) {
		uint64_t units = (local_start + local_bytes + 511) / 512;
		if (units > 511) {
			rc = usage_error("the local: specs ask for %llu bytes of LDS", (unsigned long long)local_bytes);
			goto out;
		}
		lp.Flags |= LAUNCH_LDS;
		lp.LDSSize = (UINT)units;
	}

	/* ---- the device, a queue, a list ---- */
	rc = EXIT_FAIL;
	XS12_DEVICE_DESC dd = { .Machine = XS12_MACHINE_SERIES_X, .DebugLayer = debug };
	if (failed(XS12CreateDevice(&dd, &IID_ID3D12Device, (void **)&r.dev), "XS12CreateDevice"))
		goto out;
	if (FAILED(ID3D12Device_QueryInterface(r.dev, &IID_ID3D12InfoQueue, (void **)&r.iq)))
		r.iq = NULL;
	D3D12_COMMAND_QUEUE_DESC qd = { .Type = type };
	if (failed(ID3D12Device_CreateCommandQueue(r.dev, &qd, &IID_ID3D12CommandQueue, (void **)&r.queue),
		   "CreateCommandQueue") ||
	    failed(ID3D12Device_CreateCommandAllocator(r.dev, type, &IID_ID3D12CommandAllocator, (void **)&r.alloc),
		   "CreateCommandAllocator") ||
	    failed(ID3D12Device_CreateCommandList(r.dev, 0, type, r.alloc, NULL, &IID_ID3D12GraphicsCommandList6,
						  (void **)&r.list), "CreateCommandList") ||
	    failed(ID3D12Device_CreateFence(r.dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&r.fence),
		   "CreateFence"))
		goto fail;

	/* ---- the pipeline and the root signature embedded in its bytecode ---- */
	XS12_KERNEL_BYTECODE kb = { .Magic = XS12_KERNEL_BYTECODE_MAGIC, .KernelName = kname, .pCodeObject = code,
				    .CodeObjectSize = code_size };
	const void *bc = kname ? (const void *)&kb : code;
	SIZE_T bn = kname ? sizeof(kb) : code_size;
	if (failed(ID3D12Device_CreateRootSignature(r.dev, 0, bc, bn, &IID_ID3D12RootSignature, (void **)&r.rs),
		   "CreateRootSignature"))
		goto fail;
	D3D12_COMPUTE_PIPELINE_STATE_DESC pd = { .pRootSignature = r.rs, .CS = { bc, bn } };
	if (failed(ID3D12Device_CreateComputePipelineState(r.dev, &pd, &IID_ID3D12PipelineState, (void **)&r.pso),
		   "CreateComputePipelineState"))
		goto fail;

	/* ---- buffers: DEFAULT, filled from UPLOAD, read back through READBACK ---- */
	ID3D12Resource *gpu[MAX_ARGS] = { 0 }, *rb[MAX_ARGS] = { 0 };
	D3D12_RESOURCE_STATES used_as[MAX_ARGS];
	for (unsigned i = 0; i < nargs; i++) {
		xs_argspec *a = &specs[i];
		if (!xs_argspec_is_buffer(a))
			continue;
		ID3D12Resource *stage = upload(&r, a->data, a->bytes, arg_texts[i]);
		if (!stage || !(gpu[i] = buffer(&r, D3D12_HEAP_TYPE_DEFAULT, a->bytes, arg_texts[i])))
			goto fail;
		if (a->kind != XS_AS_IN && !(rb[i] = buffer(&r, D3D12_HEAP_TYPE_READBACK, a->bytes, arg_texts[i])))
			goto fail;
		ID3D12GraphicsCommandList6_CopyBufferRegion(r.list, gpu[i], 0, stage, 0, a->bytes); /* COMMON -> COPY_DEST */
		used_as[i] = srv[i] ? D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE : D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
		transition(&r, gpu[i], D3D12_RESOURCE_STATE_COPY_DEST, used_as[i]);
	}

	/* ---- S1: the title's scratch ring ---- */
	UINT per_wave = 0;
	UINT64 ring_bytes = 0;
	if (scratch) {
		ID3DBlob *blob = NULL;
		if (failed(ID3D12PipelineState_GetInformationX(
				   r.pso, D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW, 0,
				   &blob), "GetInformationX"))
			goto fail;
		UINT units = ID3DBlob_GetBufferSize(blob) >= sizeof(UINT) ? *(const UINT *)ID3DBlob_GetBufferPointer(blob) : 0;
		ID3DBlob_Release(blob);
		per_wave = (units ? units : 1) * 1024; /* S1.12: per-wave = the query x 1024 */
		ring_bytes = (UINT64)per_wave * scratch_slots;
		ID3D12Resource *ring = buffer(&r, D3D12_HEAP_TYPE_DEFAULT, ring_bytes, "the scratch ring");
		if (!ring)
			goto fail;
		ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(r.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
								  ID3D12Resource_GetGPUVirtualAddress(ring), ring_bytes,
								  per_wave);
	}
	if (scratch_null) /* S1.4: the driver's default again */
		ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(r.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE, 0, 0,
								  0);

	/* ---- the pipeline, its root arguments, the launch parameters ---- */
	ID3D12GraphicsCommandList6_SetComputeRootSignature(r.list, r.rs);
	ID3D12GraphicsCommandList6_SetPipelineState(r.list, r.pso);
	for (unsigned i = 0; i < nargs; i++) {
		if (param_of[i] < 0)
			continue;
		UINT p = (UINT)param_of[i];
		if (gpu[i]) {
			D3D12_GPU_VIRTUAL_ADDRESS va = ID3D12Resource_GetGPUVirtualAddress(gpu[i]);
			if (srv[i])
				ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(r.list, p, va);
			else
				ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(r.list, p, va);
		} else {
			UINT v[2];
			size_t n = xs_argspec_value_bytes(&specs[i], v);
			ID3D12GraphicsCommandList6_SetComputeRoot32BitConstants(r.list, p, (UINT)(n / 4), v, 0);
		}
	}
	if (indirect) {
		/* one record: the launch parameters (S3.1), then the group counts */
		struct { UINT dw[2]; D3D12_DISPATCH_ARGUMENTS da; } rec = {
			{ lp.Dword0, lp.Dword1 }, { groups[0], groups[1], groups[2] } };
		_Static_assert(sizeof(rec) == 20, "launch parameters (8 bytes) + DISPATCH (12 bytes)");
		D3D12_INDIRECT_ARGUMENT_DESC ad[2] = {
			{ .Type = D3D12XBOX_INDIRECT_ARGUMENT_TYPE_COMPUTE_SHADER_LAUNCH_PARAMETERSX },
			{ .Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH },
		};
		D3D12_COMMAND_SIGNATURE_DESC sd = { .ByteStride = sizeof(rec), .NumArgumentDescs = 2, .pArgumentDescs = ad };
		ID3D12Resource *args = upload(&r, &rec, sizeof(rec), "the ExecuteIndirect arguments");
		if (!args ||
		    failed(ID3D12Device_CreateCommandSignature(r.dev, &sd, NULL, &IID_ID3D12CommandSignature, (void **)&r.sig),
			   "CreateCommandSignature"))
			goto fail;
		ID3D12GraphicsCommandList6_ExecuteIndirect(r.list, r.sig, 1, args, 0, NULL, 0);
	} else {
		if (lp.Flags)
			ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(r.list, &lp);
		ID3D12GraphicsCommandList6_Dispatch(r.list, groups[0], groups[1], groups[2]);
	}

	/* ---- results back ---- */
	for (unsigned i = 0; i < nargs; i++)
		if (rb[i]) {
			transition(&r, gpu[i], used_as[i], D3D12_RESOURCE_STATE_COPY_SOURCE);
			ID3D12GraphicsCommandList6_CopyBufferRegion(r.list, rb[i], 0, gpu[i], 0, specs[i].bytes);
		}

	/* ---- execute and wait ---- */
	HRESULT hr = ID3D12GraphicsCommandList6_Close(r.list);
	if (SUCCEEDED(hr)) {
		ID3D12CommandList *l = (ID3D12CommandList *)r.list;
		ID3D12CommandQueue_ExecuteCommandLists(r.queue, 1, &l);
		hr = ID3D12CommandQueue_Signal(r.queue, r.fence, 1);
		if (SUCCEEDED(hr))
			hr = ID3D12Fence_SetEventOnCompletion(r.fence, 1, NULL);
		if (SUCCEEDED(hr))
			hr = ID3D12Device_GetDeviceRemovedReason(r.dev);
	}
	unsigned errors = report_messages(&r, false);
	if (debug && errors) {
		fprintf(stderr, "d3d12_run: the debug layer reported %u error%s\n", errors, errors == 1 ? "" : "s");
		rc = EXIT_DEBUG;
		goto fail;
	}
	if (failed(hr, "the command list (Close, execution or the device)"))
		goto fail;

	XS12_DISPATCH_STATISTICS st;
	if (failed(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)r.list, 0, &st), "XS12GetDispatchStatistics"))
		goto fail;
	for (unsigned i = 0; i < nargs; i++) {
		if (!rb[i])
			continue;
		void *p;
		D3D12_RANGE all = { 0, specs[i].bytes };
		if (failed(ID3D12Resource_Map(rb[i], 0, &all, &p), "Map of a READBACK buffer"))
			goto fail;
		int w = xs_argspec_store(&specs[i], p, specs[i].bytes, err, sizeof(err));
		ID3D12Resource_Unmap(rb[i], 0, NULL);
		if (w) {
			fprintf(stderr, "d3d12_run: %s\n", err);
			goto fail;
		}
	}
	printf("d3d12_run: kernel=%s queue=%s groups=%u,%u,%u block=%u,%u,%u launch_flags=0x%x lds_size=%u%s "
	       "scratch_ring=%u%s per_wave=%u waves_launched=%llu peak_waves_in_flight=%u scratch_slots=%u "
	       "peak_scratch_slots=%u cycles=%llu\n",
	       ki->name, queue_s, groups[0], groups[1], groups[2], block[0], block[1], block[2], (unsigned)lp.Flags,
	       (unsigned)lp.LDSSize, indirect ? " indirect=1" : "", scratch ? scratch_slots : 0,
	       scratch_null ? " scratch_null=1" : "", per_wave,
	       (unsigned long long)st.WavesLaunched, st.PeakWavesInFlight, st.ScratchSlots, st.PeakScratchSlots,
	       (unsigned long long)st.Cycles);
	rc = 0;
fail:
	run_release(&r);
out:
	xs_codeobj_free(co);
	free(code);
	for (unsigned i = 0; i < nargs; i++)
		xs_argspec_free(&specs[i]);
	return rc;
}
