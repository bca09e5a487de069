/* Unit tests of tools/xs_argspec.[ch]: good and bad specs, file round trips. */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L   /* fileno, mkdtemp */
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xs_argspec.h"

static char err[512];

static xs_argspec parse_ok(const char *s)
{
	xs_argspec a;
	int r = xs_argspec_parse(s, &a, err, sizeof(err));
	if (r != 0)
		print_error("unexpected failure for '%s': %s\n", s, err);
	assert_int_equal(r, 0);
	return a;
}

/* Parses a bad spec; the message must name the spec and contain `what`. */
static void parse_bad(const char *s, const char *what)
{
	xs_argspec a;
	memset(&a, 0x5a, sizeof(a));
	int r = xs_argspec_parse(s, &a, err, sizeof(err));
	if (r != -1)
		print_error("'%s' was accepted\n", s);
	assert_int_equal(r, -1);
	char want[256];
	snprintf(want, sizeof(want), "--arg '%s': ", s);
	if (strncmp(err, want, strlen(want)) != 0 || !strstr(err, what))
		print_error("spec '%s': message '%s' lacks '%s' or '%s'\n", s, err, want, what);
	assert_non_null(strstr(err, what));
	assert_memory_equal(err, want, strlen(want));
	/* left empty: freeing is harmless */
	assert_null(a.data);
	assert_null(a.strings_);
	xs_argspec_free(&a);
}

static void test_integers(void **state)
{
	(void)state;
	xs_argspec a = parse_ok("i32:-7");
	assert_int_equal(a.kind, XS_AS_I32);
	assert_int_equal(a.val.i, -7);
	assert_int_equal(xs_argspec_value_size(&a), 4);
	assert_false(xs_argspec_is_buffer(&a));
	uint8_t b[8];
	assert_int_equal(xs_argspec_value_bytes(&a, b), 4);
	assert_memory_equal(b, "\xf9\xff\xff\xff", 4);

	a = parse_ok("i32:-2147483648");
	assert_int_equal(a.val.i, INT32_MIN);
	a = parse_ok("i32:2147483647");
	assert_int_equal(a.val.i, INT32_MAX);
	a = parse_ok("i32:0x10");
	assert_int_equal(a.val.i, 16);
	a = parse_ok("i32:-0x10");
	assert_int_equal(a.val.i, -16);
	a = parse_ok("i32:010");   /* decimal, not octal */
	assert_int_equal(a.val.i, 10);
	a = parse_ok("i32:+5");
	assert_int_equal(a.val.i, 5);

	a = parse_ok("u32:4294967295");
	assert_int_equal(a.kind, XS_AS_U32);
	assert_true(a.val.u == UINT32_MAX);
	a = parse_ok("u32:0xDEADbeef");
	assert_true(a.val.u == 0xdeadbeefu);
	assert_int_equal(xs_argspec_value_bytes(&a, b), 4);
	assert_memory_equal(b, "\xef\xbe\xad\xde", 4);

	a = parse_ok("i64:-9223372036854775808");
	assert_int_equal(a.kind, XS_AS_I64);
	assert_true(a.val.i == INT64_MIN);
	a = parse_ok("i64:9223372036854775807");
	assert_true(a.val.i == INT64_MAX);
	assert_int_equal(xs_argspec_value_size(&a), 8);
	a = parse_ok("u64:18446744073709551615");
	assert_true(a.val.u == UINT64_MAX);
	a = parse_ok("u64:0x0123456789abcdef");
	assert_int_equal(xs_argspec_value_bytes(&a, b), 8);
	assert_memory_equal(b, "\xef\xcd\xab\x89\x67\x45\x23\x01", 8);
	xs_argspec_free(&a);
}

static void test_bad_integers(void **state)
{
	(void)state;
	parse_bad("i32:", "missing value");
	parse_bad("i32:abc", "not an integer");
	parse_bad("i32:12abc", "junk 'abc'");
	parse_bad("i32:1.5", "junk '.5'");
	parse_bad("i32: 5", "not an integer");
	parse_bad("i32:0x", "not an integer");
	parse_bad("i32:--5", "not an integer");
	parse_bad("i32:2147483648", "out of range for i32");
	parse_bad("i32:-2147483649", "out of range for i32");
	parse_bad("i32:0x80000000", "out of range for i32");
	parse_bad("u32:4294967296", "out of range for u32");
	parse_bad("u32:-1", "negative value for unsigned u32");
	parse_bad("u64:-1", "negative value for unsigned u64");
	parse_bad("i64:9223372036854775808", "out of range for i64");
	parse_bad("i64:-9223372036854775809", "out of range for i64");
	parse_bad("u64:18446744073709551616", "out of range for u64");
	parse_bad("u64:99999999999999999999999", "out of range for u64");
}

static void test_floats(void **state)
{
	(void)state;
	xs_argspec a = parse_ok("f32:2.5");
	assert_int_equal(a.kind, XS_AS_F32);
	assert_true(a.val.f == 2.5);
	uint8_t b[8];
	assert_int_equal(xs_argspec_value_bytes(&a, b), 4);
	assert_memory_equal(b, "\x00\x00\x20\x40", 4);

	/* 0.1 rounds once to the nearest float */
	a = parse_ok("f32:0.1");
	assert_true(a.val.f == (double)0.1f);
	a = parse_ok("f32:0x1.8p1");
	assert_true(a.val.f == 3.0);
	a = parse_ok("f32:-inf");
	assert_true(isinf(a.val.f) && a.val.f < 0);
	a = parse_ok("f32:nan");
	assert_true(isnan(a.val.f));
	a = parse_ok("f32:1e-40");   /* a denormal: accepted */
	assert_true(a.val.f > 0 && a.val.f < 1.2e-38);
	a = parse_ok("f64:0.1");
	assert_int_equal(a.kind, XS_AS_F64);
	assert_true(a.val.f == 0.1);
	assert_int_equal(xs_argspec_value_size(&a), 8);
	assert_int_equal(xs_argspec_value_bytes(&a, b), 8);
	assert_memory_equal(b, "\x9a\x99\x99\x99\x99\x99\xb9\x3f", 8);
	a = parse_ok("f64:1e300");
	assert_true(a.val.f == 1e300);
	a = parse_ok("f64:INF");
	assert_true(isinf(a.val.f));
}

static void test_bad_floats(void **state)
{
	(void)state;
	parse_bad("f32:abc", "not a number");
	parse_bad("f32:", "missing value");
	parse_bad("f32:1.5x", "not a number");
	parse_bad("f32: 1", "not a number");
	parse_bad("f32:1e39", "out of range for f32");
	parse_bad("f64:1e400", "out of range for f64");
	parse_bad("f64:1,5", "not a number");
}

static void test_buffers(void **state)
{
	(void)state;
	xs_argspec a = parse_ok("in:data/a.bin");
	assert_int_equal(a.kind, XS_AS_IN);
	assert_string_equal(a.file, "data/a.bin");
	assert_null(a.outfile);
	assert_true(xs_argspec_is_buffer(&a));
	assert_int_equal(xs_argspec_value_size(&a), 0);
	xs_argspec_free(&a);
	a = parse_ok("in:c:weird");   /* in: the rest is the file name */
	assert_string_equal(a.file, "c:weird");
	xs_argspec_free(&a);

	a = parse_ok("out:c.bin:4000");
	assert_int_equal(a.kind, XS_AS_OUT);
	assert_string_equal(a.file, "c.bin");
	assert_true(a.bytes == 4000);
	xs_argspec_free(&a);
	a = parse_ok("out:dir:x/c.bin:4K");   /* out: splits at the last ':' */
	assert_string_equal(a.file, "dir:x/c.bin");
	assert_true(a.bytes == 4096);
	xs_argspec_free(&a);
	a = parse_ok("out:c.bin:2M");
	assert_true(a.bytes == 2u << 20);
	xs_argspec_free(&a);
	a = parse_ok("out:c.bin:0x100");
	assert_true(a.bytes == 256);
	xs_argspec_free(&a);
	a = parse_ok("out:c.bin:1024M");
	assert_true(a.bytes == XS_ARGSPEC_MAX_BYTES);
	xs_argspec_free(&a);
	a = parse_ok("out:c.bin:1G");   /* G, as K and M */
	assert_true(a.bytes == XS_ARGSPEC_MAX_BYTES);
	xs_argspec_free(&a);

	/* the spec string need not outlive the parsed spec */
	char tmp[64];
	strcpy(tmp, "inout:y.bin:y:out.bin");
	a = parse_ok(tmp);
	memset(tmp, 'Z', sizeof(tmp) - 1);
	assert_int_equal(a.kind, XS_AS_INOUT);
	assert_string_equal(a.file, "y.bin");
	assert_string_equal(a.outfile, "y:out.bin");
	assert_true(xs_argspec_is_buffer(&a));
	xs_argspec_free(&a);
	xs_argspec_free(&a);   /* twice is harmless */

	a = parse_ok("local:512");
	assert_int_equal(a.kind, XS_AS_LOCAL);
	assert_true(a.bytes == 512);
	assert_false(xs_argspec_is_buffer(&a));
	assert_int_equal(xs_argspec_value_size(&a), 0);
	a = parse_ok("local:64k");
	assert_true(a.bytes == 65536);
	xs_argspec_free(&a);
}

static void test_bad_buffers(void **state)
{
	(void)state;
	parse_bad("", "expected KIND:VALUE");
	parse_bad("vadd.bin", "expected KIND:VALUE");
	parse_bad("float:1", "unknown kind 'float'");
	parse_bad("I32:1", "unknown kind 'I32'");
	parse_bad(":1", "unknown kind ''");
	parse_bad("in:", "missing file name");
	parse_bad("out:c.bin", "expected out:FILE:BYTES");
	parse_bad("out::16", "missing file name");
	parse_bad("out:c.bin:", "missing byte count");
	parse_bad("out:c.bin:0", "at least 1");
	parse_bad("out:c.bin:-4", "not a number");
	parse_bad("out:c.bin:4G", "over the limit");
	parse_bad("out:c.bin:4T", "junk 'T'");
	parse_bad("out:c.bin:4KK", "junk 'K'");
	parse_bad("out:c.bin:1025M", "over the limit");
	parse_bad("out:c.bin:99999999999999999999999", "over the limit");
	parse_bad("inout:y.bin", "expected inout:FILE:OUTFILE");
	parse_bad("inout::y.out", "missing file name");
	parse_bad("inout:y.bin:", "missing output file name");
	parse_bad("local:", "missing byte count");
	parse_bad("local:abc", "not a number");
	/* local:0 is accepted: the LDS may come from xs12 run --launch lds= (S3.3) */
	xs_argspec z = parse_ok("local:0");
	assert_int_equal(z.kind, XS_AS_LOCAL);
	assert_true(z.bytes == 0);
	xs_argspec_free(&z);
}

static void test_files(void **state)
{
	(void)state;
	char dir[] = "/tmp/xs_argspec_XXXXXX";
	assert_non_null(mkdtemp(dir));
	char in[128], out[128], empty[128], spec[400];
	snprintf(in, sizeof(in), "%s/in.bin", dir);
	snprintf(out, sizeof(out), "%s/out.bin", dir);
	snprintf(empty, sizeof(empty), "%s/empty.bin", dir);
	FILE *f = fopen(in, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite("\x01\x02\x03\x04\x05", 1, 5, f), 5);
	fclose(f);
	f = fopen(empty, "wb");
	assert_non_null(f);
	fclose(f);

	snprintf(spec, sizeof(spec), "inout:%s:%s", in, out);
	xs_argspec a = parse_ok(spec);
	assert_int_equal(xs_argspec_load(&a, err, sizeof(err)), 0);
	assert_true(a.bytes == 5);
	assert_memory_equal(a.data, "\x01\x02\x03\x04\x05", 5);
	a.data[0] = 9;
	assert_int_equal(xs_argspec_store(&a, a.data, 5, err, sizeof(err)), 0);
	xs_argspec_free(&a);

	snprintf(spec, sizeof(spec), "in:%s", out);
	a = parse_ok(spec);
	assert_int_equal(xs_argspec_load(&a, err, sizeof(err)), 0);
	assert_true(a.bytes == 5);
	assert_memory_equal(a.data, "\x09\x02\x03\x04\x05", 5);
	/* store on an `in` spec does nothing */
	assert_int_equal(xs_argspec_store(&a, "xx", 2, err, sizeof(err)), 0);
	xs_argspec_free(&a);

	snprintf(spec, sizeof(spec), "out:%s:2", out);
	a = parse_ok(spec);
	assert_int_equal(xs_argspec_load(&a, err, sizeof(err)), 0);   /* nothing to load */
	assert_null(a.data);
	assert_int_equal(xs_argspec_store(&a, "\xaa\xbb", 2, err, sizeof(err)), 0);
	xs_argspec_free(&a);
	f = fopen(out, "rb");
	assert_non_null(f);
	unsigned char back[8];
	assert_int_equal(fread(back, 1, sizeof(back), f), 2);
	fclose(f);
	assert_memory_equal(back, "\xaa\xbb", 2);

	/* errors: missing, empty, directory, unwritable */
	snprintf(spec, sizeof(spec), "in:%s/nope.bin", dir);
	a = parse_ok(spec);
	assert_int_equal(xs_argspec_load(&a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot open input file"));
	assert_non_null(strstr(err, spec));
	xs_argspec_free(&a);
	snprintf(spec, sizeof(spec), "in:%s", empty);
	a = parse_ok(spec);
	assert_int_equal(xs_argspec_load(&a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "empty"));
	xs_argspec_free(&a);
	snprintf(spec, sizeof(spec), "in:%s", dir);
	a = parse_ok(spec);
	assert_int_equal(xs_argspec_load(&a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a regular file"));
	xs_argspec_free(&a);
	snprintf(spec, sizeof(spec), "out:%s/no/such/dir.bin:4", dir);
	a = parse_ok(spec);
	assert_int_equal(xs_argspec_store(&a, "abcd", 4, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot create output file"));
	assert_non_null(strstr(err, spec));
	xs_argspec_free(&a);

	unlink(in);
	unlink(out);
	unlink(empty);
	rmdir(dir);
}

static void test_kind_names(void **state)
{
	(void)state;
	assert_string_equal(xs_argspec_kind_name(XS_AS_I32), "i32");
	assert_string_equal(xs_argspec_kind_name(XS_AS_F64), "f64");
	assert_string_equal(xs_argspec_kind_name(XS_AS_INOUT), "inout");
	assert_string_equal(xs_argspec_kind_name(XS_AS_LOCAL), "local");
	assert_string_equal(xs_argspec_kind_name((xs_argspec_kind)99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_bad_integers),
		cmocka_unit_test(test_floats),
		cmocka_unit_test(test_bad_floats),
		cmocka_unit_test(test_buffers),
		cmocka_unit_test(test_bad_buffers),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_kind_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
