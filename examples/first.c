/* A first xs12 program: c = a + b with the vadd kernel on a simulated
 * Xbox Series X.  Build: cc first.c $(pkg-config --cflags --libs xs12)
 * Run:   ./first build/kernels/vadd.O2.w32.hsaco */
#include <stdio.h>
#include <string.h>
#include <xs12/xs12.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s vadd.hsaco\n", argv[0]);
		return 2;
	}
	enum { N = 1000 };
	float a[N], b[N], c[N];
	for (int i = 0; i < N; i++)
		a[i] = (float)i, b[i] = 0.5f * (float)i;

	xs_device *dev;
	xs_module *mod;
	xs_device_desc desc = { .machine = XS_MACHINE_SERIES_X };
	if (xs_device_create(&desc, &dev) || xs_module_load_file(dev, argv[1], &mod)) {
		fprintf(stderr, "%s\n", xs_last_error(NULL)[0] ? xs_last_error(NULL) : xs_last_error(dev));
		return 1;
	}
	const xs_kernel_info *k = xs_module_find_kernel(mod, "vadd");

	/* GPU buffers, and the explicit arguments at their metadata offsets. */
	uint64_t va[3];
	unsigned char kargs[256] = { 0 };
	uint32_t n = N;
	for (int i = 0; i < 3; i++) {
		xs_mem_alloc(dev, sizeof(a), 256, &va[i]);
		memcpy(kargs + k->args[i].offset, &va[i], 8);
	}
	memcpy(kargs + k->args[3].offset, &n, 4);
	xs_mem_write(dev, va[0], a, sizeof(a));
	xs_mem_write(dev, va[1], b, sizeof(b));

	xs_dispatch_desc d = {
		.kernel = k, .module = mod,
		.groups = { (N + 63) / 64, 1, 1 }, .block = { 64, 1, 1 },
		.kernargs = kargs, .kernargs_size = k->kernarg_size < sizeof(kargs) ? k->kernarg_size : sizeof(kargs),
	};
	xs_dispatch_stats st;
	if (xs_dispatch(dev, &d, &st)) {
		fprintf(stderr, "%s\n", xs_last_error(dev));
		return 1;
	}
	xs_mem_read(dev, va[2], c, sizeof(c));
	printf("c[999] = %g (expected %g); %llu waves, %llu wave instructions, %llu cycles\n", c[999],
	       a[999] + b[999], (unsigned long long)st.waves_launched,
	       (unsigned long long)st.wave_instructions, (unsigned long long)st.cycles);
	xs_module_destroy(mod);
	xs_device_destroy(dev);
	return c[999] == a[999] + b[999] ? 0 : 1;
}
