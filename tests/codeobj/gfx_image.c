/* gfx_image IN.o OUT.bin: the loaded code image of a graphics shader
 * (xs_gfx_shader_parse: .text, .rodata 256-byte aligned, relocations
 * applied) for check_gfx.py to compare with its own relocation of the
 * object's bytes. Prints "rodata_offset N" (or "rodata_offset none"). */
#include <stdio.h>
#include <stdlib.h>

#include "codeobj/xs_codeobj_gfx.h"

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: gfx_image IN.o OUT.bin\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 2;
	static uint8_t buf[1 << 22];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	xs_gfx_shader s;
	xs_err e;
	xs_err_clear(&e);
	if (xs_gfx_shader_parse(buf, n, NULL, &s, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		return 1;
	}
	FILE *o = fopen(argv[2], "wb");
	if (!o || fwrite(s.image, 1, s.image_size, o) != s.image_size || fclose(o))
		return 2;
	printf("image_size %zu\n", s.image_size);
	xs_gfx_shader_free(&s);
	return 0;
}
