/*
 * pocl_run — runs one OpenCL C kernel on PoCL's CPU device, the oracle of the
 * end-to-end tests. Same argument syntax as `xs12 run` (tools/xs_argspec.h):
 *
 *   pocl_run FILE.cl --kernel NAME --groups X[,Y[,Z]] --block X[,Y[,Z]]
 *            [--arg SPEC]... [--build-opts "..."]
 *
 * --groups counts thread groups: global size = groups × block, local = block.
 * Exit: 0 ok, 1 OpenCL or I/O failure, 2 usage error (options, specs, argument
 * count or kinds that do not match the kernel).
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <getopt.h>
#include <time.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xs_argspec.h"

#define MAX_ARGS 64

enum { EXIT_CL = 1, EXIT_USAGE = 2 };

static void usage(FILE *to)
{
	fprintf(to,
	        "usage: pocl_run FILE.cl --kernel NAME --groups X[,Y[,Z]] --block X[,Y[,Z]]\n"
	        "                [--arg SPEC]... [--build-opts \"...\"]\n"
	        "  runs kernel NAME of FILE.cl on PoCL's CPU device (OpenCL C 1.2);\n"
	        "  global size = groups x block, local size = block.\n"
	        "SPEC (one per kernel argument, in order):\n"
	        "  i32:V u32:V i64:V u64:V f32:V f64:V   by-value\n"
	        "  in:FILE  out:FILE:BYTES  inout:FILE:OUTFILE   buffers (BYTES: K/M suffix)\n"
	        "  local:BYTES                             dynamic LDS (__local pointer)\n"
	        "exit: 0 ok, 1 OpenCL or I/O failure, 2 usage error\n");
}

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("pocl_run: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return EXIT_USAGE;
}

/* "X[,Y[,Z]]", each 1 .. 2^31-1; missing dimensions are 1. */
static int parse_dims(const char *opt, const char *s, size_t d[3], cl_uint *ndim)
{
	d[0] = d[1] = d[2] = 1;
	*ndim = 0;
	const char *p = s;
	for (;;) {
		if (*ndim == 3)
			return usage_error("%s '%s': at most 3 dimensions", opt, s);
		char *end;
		if (*p < '0' || *p > '9')
			return usage_error("%s '%s': expected X[,Y[,Z]] of positive integers", opt, s);
		unsigned long long v = strtoull(p, &end, 10);
		if (v == 0 || v > INT32_MAX)
			return usage_error("%s '%s': each size must be 1 .. 2147483647", opt, s);
		d[(*ndim)++] = (size_t)v;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			return usage_error("%s '%s': expected X[,Y[,Z]] of positive integers", opt, s);
		p = end + 1;
	}
}

static const char *cl_err_name(cl_int e)
{
	switch (e) {
#define E(x) case x: return #x;
	E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
	E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_BUILD_PROGRAM_FAILURE) E(CL_INVALID_VALUE)
	E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT) E(CL_INVALID_BINARY)
	E(CL_INVALID_BUILD_OPTIONS) E(CL_INVALID_PROGRAM) E(CL_INVALID_KERNEL_NAME)
	E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE)
	E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
	E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_BUFFER_SIZE)
	E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_OPERATION)
	E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
#undef E
	default: return "unknown OpenCL error";
	}
}

#define CL_CHECK(call, what)                                                          \
	do {                                                                          \
		cl_int e_ = (call);                                                   \
		if (e_ != CL_SUCCESS) {                                               \
			fprintf(stderr, "pocl_run: %s: %s (%d)\n", what, cl_err_name(e_), \
			        (int)e_);                                             \
			goto fail;                                                    \
		}                                                                     \
	} while (0)

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (cap - len < 4096) {
			if (cap > (64u << 20)) {   /* a kernel source of over 64 MiB: no */
				free(buf);
				fclose(f);
				return NULL;
			}
			cap = cap ? 2 * cap : 8192;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		size_t n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

/* PoCL's CPU device: the platform whose name holds "Portable" (else the
 * first platform with a CPU device, else the first device at all). */
static cl_int pick_device(cl_platform_id *plat, cl_device_id *dev)
{
	cl_platform_id ps[16];
	cl_uint np = 0;
	cl_int e = clGetPlatformIDs(16, ps, &np);
	if (e != CL_SUCCESS)
		return e;
	if (np > 16)
		np = 16;
	int best = -1, best_score = -1;
	for (cl_uint i = 0; i < np; i++) {
		char name[256] = "";
		clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof(name) - 1, name, NULL);
		cl_uint nd = 0;
		bool has_cpu = clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_CPU, 0, NULL, &nd) == CL_SUCCESS && nd;
		int score = (strstr(name, "Portable") ? 4 : 0) + (has_cpu ? 2 : 0);
		if (score > best_score)
			best = (int)i, best_score = score;
	}
	if (best < 0)
		return CL_DEVICE_NOT_FOUND;
	*plat = ps[best];
	e = clGetDeviceIDs(*plat, CL_DEVICE_TYPE_CPU, 1, dev, NULL);
	if (e != CL_SUCCESS)
		e = clGetDeviceIDs(*plat, CL_DEVICE_TYPE_ALL, 1, dev, NULL);
	return e;
}

static void print_build_log(cl_program prog, cl_device_id dev)
{
	size_t n = 0;
	if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) != CL_SUCCESS || !n)
		return;
	char *log = malloc(n + 1);
	if (!log)
		return;
	if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL) == CL_SUCCESS) {
		log[n] = '\0';
		fprintf(stderr, "---- OpenCL build log ----\n%s\n--------------------------\n", log);
	}
	free(log);
}

/* With -cl-kernel-arg-info, checks that each spec fits its argument: buffers
 * for __global/__constant pointers, local: for __local pointers, a by-value
 * spec for the rest (its size is checked by clSetKernelArg). Returns 0 or
 * EXIT_USAGE. Skipped if the implementation has no argument info. */
static int check_arg_kinds(cl_kernel k, const xs_argspec *specs, const char *const *texts,
                           cl_uint n)
{
	for (cl_uint i = 0; i < n; i++) {
		cl_kernel_arg_address_qualifier aq;
		char tname[128] = "", aname[128] = "";
		if (clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(aq), &aq, NULL)
		    != CL_SUCCESS)
			return 0;
		clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof(tname) - 1, tname, NULL);
		clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof(aname) - 1, aname, NULL);
		const xs_argspec *a = &specs[i];
		const char *want = NULL;
		if (aq == CL_KERNEL_ARG_ADDRESS_LOCAL) {
			if (a->kind != XS_AS_LOCAL)
				want = "local:BYTES";
		} else if (aq == CL_KERNEL_ARG_ADDRESS_GLOBAL || aq == CL_KERNEL_ARG_ADDRESS_CONSTANT) {
			if (!xs_argspec_is_buffer(a))
				want = "in:, out: or inout:";
		} else if (xs_argspec_value_size(a) == 0) {
			want = "a by-value spec (i32: u32: i64: u64: f32: f64:)";
		}
		if (want)
			return usage_error("--arg '%s': argument %u '%s' is '%s'; it needs %s", texts[i],
			                   (unsigned)i, aname, tname, want);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *kname = NULL, *groups_s = NULL, *block_s = NULL, *build_opts = "";
	const char *arg_texts[MAX_ARGS];
	xs_argspec specs[MAX_ARGS];
	unsigned nargs = 0;
	int rc = EXIT_CL;
	char err[1024];
	bool timed = false;

	static const struct option longopts[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "groups", required_argument, NULL, 'g' },
		{ "block", required_argument, NULL, 'b' },
		{ "arg", required_argument, NULL, 'a' },
		{ "build-opts", required_argument, NULL, 'o' },
		{ "time", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'k': kname = optarg; break;
		case 'g': groups_s = optarg; break;
		case 'b': block_s = optarg; break;
		case 'o': build_opts = optarg; break;
		case 't': timed = true; break;
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
			rc = EXIT_USAGE;
			goto out;
		}
	}
	if (optind != argc - 1) {
		rc = usage_error(optind >= argc ? "missing FILE.cl" : "more than one FILE.cl ('%s')",
		                 optind < argc ? argv[optind + 1] : "");
		usage(stderr);
		goto out;
	}
	if (!kname || !groups_s || !block_s) {
		rc = usage_error("--kernel, --groups and --block are required");
		goto out;
	}
	size_t groups[3], block[3], global[3];
	cl_uint gdim, bdim;
	if ((rc = parse_dims("--groups", groups_s, groups, &gdim)) ||
	    (rc = parse_dims("--block", block_s, block, &bdim)))
		goto out;
	cl_uint ndim = gdim > bdim ? gdim : bdim;
	for (int d = 0; d < 3; d++) {
		if (groups[d] > SIZE_MAX / block[d]) {
			rc = usage_error("--groups x --block overflows in dimension %d", d);
			goto out;
		}
		global[d] = groups[d] * block[d];
	}
	for (unsigned i = 0; i < nargs; i++)
		if (xs_argspec_load(&specs[i], err, sizeof(err)) != 0) {
			rc = usage_error("%s", err);
			goto out;
		}
	const char *path = argv[optind];
	char *src = read_text(path);
	if (!src) {
		rc = usage_error("%s: cannot read the OpenCL C source", path);
		goto out;
	}

	rc = EXIT_CL;
	cl_platform_id plat;
	cl_device_id dev;
	cl_context ctx = NULL;
	cl_command_queue q = NULL;
	cl_program prog = NULL;
	cl_kernel kern = NULL;
	cl_mem mems[MAX_ARGS] = { 0 };
	char *opts = NULL;
	cl_int e;
	CL_CHECK(pick_device(&plat, &dev), "no OpenCL CPU device (is pocl-opencl-icd installed?)");
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
	CL_CHECK(e, "clCreateContext");
	q = clCreateCommandQueue(ctx, dev, 0, &e);
	CL_CHECK(e, "clCreateCommandQueue");
	prog = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &e);
	CL_CHECK(e, "clCreateProgramWithSource");
	size_t olen = strlen(build_opts) + 64;
	opts = malloc(olen);
	if (!opts)
		goto fail;
	snprintf(opts, olen, "-cl-std=CL1.2 -cl-kernel-arg-info %s", build_opts);
	e = clBuildProgram(prog, 1, &dev, opts, NULL, NULL);
	if (e != CL_SUCCESS) {
		fprintf(stderr, "pocl_run: %s: build with \"%s\" failed: %s (%d)\n", path, opts,
		        cl_err_name(e), (int)e);
		print_build_log(prog, dev);
		goto fail;
	}
	kern = clCreateKernel(prog, kname, &e);
	if (e == CL_INVALID_KERNEL_NAME) {
		rc = usage_error("%s: no kernel named '%s'", path, kname);
		goto fail;
	}
	CL_CHECK(e, "clCreateKernel");
	cl_uint kargs = 0;
	CL_CHECK(clGetKernelInfo(kern, CL_KERNEL_NUM_ARGS, sizeof(kargs), &kargs, NULL),
	         "clGetKernelInfo(CL_KERNEL_NUM_ARGS)");
	if (kargs != nargs) {
		rc = usage_error("kernel '%s' takes %u arguments, %u --arg given", kname,
		                 (unsigned)kargs, nargs);
		goto fail;
	}
	if ((rc = check_arg_kinds(kern, specs, arg_texts, nargs)) != 0)
		goto fail;
	rc = EXIT_CL;

	for (unsigned i = 0; i < nargs; i++) {
		xs_argspec *a = &specs[i];
		char what[160];
		snprintf(what, sizeof(what), "--arg '%s': clSetKernelArg %u", arg_texts[i], i);
		if (xs_argspec_is_buffer(a)) {
			void *init = a->data;
			uint8_t *zero = NULL;
			if (!init) {   /* out: a zeroed buffer */
				zero = calloc(1, (size_t)a->bytes);
				if (!zero) {
					fprintf(stderr, "pocl_run: %s: out of memory\n", what);
					goto fail;
				}
				init = zero;
			}
			mems[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			                         (size_t)a->bytes, init, &e);
			free(zero);
			CL_CHECK(e, what);
			CL_CHECK(clSetKernelArg(kern, i, sizeof(cl_mem), &mems[i]), what);
		} else if (a->kind == XS_AS_LOCAL) {
			CL_CHECK(clSetKernelArg(kern, i, (size_t)a->bytes, NULL), what);
		} else {
			uint8_t v[8];
			size_t n = xs_argspec_value_bytes(a, v);
			e = clSetKernelArg(kern, i, n, v);
			if (e == CL_INVALID_ARG_SIZE) {
				char tname[128] = "?";
				clGetKernelArgInfo(kern, i, CL_KERNEL_ARG_TYPE_NAME, sizeof(tname) - 1, tname,
				                   NULL);
				rc = usage_error("--arg '%s': argument %u is '%s', not %zu bytes", arg_texts[i], i,
				                 tname, n);
				goto fail;
			}
			CL_CHECK(e, what);
		}
	}
	e = clEnqueueNDRangeKernel(q, kern, ndim, NULL, global, block, 0, NULL, NULL);
	if (e == CL_INVALID_WORK_GROUP_SIZE) {
		size_t req[3] = { 0, 0, 0 };
		clGetKernelWorkGroupInfo(kern, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(req), req,
		                         NULL);
		if (req[0])
			rc = usage_error("--block %s: kernel '%s' requires a work-group size of %zu,%zu,%zu",
			                 block_s, kname, req[0], req[1], req[2]);
		else
			rc = usage_error("--block %s: work-group size not accepted by the device", block_s);
		goto fail;
	}
	CL_CHECK(e, "clEnqueueNDRangeKernel");
	CL_CHECK(clFinish(q), "clFinish");
	if (timed) {
		/* The first launch includes PoCL's work-group compilation for this
		 * size; time a second one (bench/: the speed baseline). Buffers are
		 * not reset, so outputs of read-modify-write kernels change. */
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		CL_CHECK(clEnqueueNDRangeKernel(q, kern, ndim, NULL, global, block, 0, NULL, NULL),
			 "clEnqueueNDRangeKernel");
		CL_CHECK(clFinish(q), "clFinish");
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("kernel_seconds %.6f\n", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
	}
	for (unsigned i = 0; i < nargs; i++) {
		xs_argspec *a = &specs[i];
		if (a->kind != XS_AS_OUT && a->kind != XS_AS_INOUT)
			continue;
		uint8_t *res = malloc((size_t)a->bytes);
		if (!res) {
			fprintf(stderr, "pocl_run: out of memory reading back argument %u\n", i);
			goto fail;
		}
		e = clEnqueueReadBuffer(q, mems[i], CL_TRUE, 0, (size_t)a->bytes, res, 0, NULL, NULL);
		if (e != CL_SUCCESS) {
			free(res);
			CL_CHECK(e, "clEnqueueReadBuffer");
		}
		int r = xs_argspec_store(a, res, (size_t)a->bytes, err, sizeof(err));
		free(res);
		if (r != 0) {
			fprintf(stderr, "pocl_run: %s\n", err);
			goto fail;
		}
	}
	rc = 0;
fail:
	for (unsigned i = 0; i < nargs; i++)
		if (mems[i])
			clReleaseMemObject(mems[i]);
	if (kern)
		clReleaseKernel(kern);
	if (prog)
		clReleaseProgram(prog);
	if (q)
		clReleaseCommandQueue(q);
	if (ctx)
		clReleaseContext(ctx);
	free(opts);
	free(src);
out:
	for (unsigned i = 0; i < nargs; i++)
		xs_argspec_free(&specs[i]);
	return rc;
}
