/*
 * SetGraphicsShaderLimitsX (SPEC S4): every member reaches its register
 * field, read back by decoding the list's PM4 with the project's decoder
 * (src/pm4) and the register database's fields by name; each rule broken
 * (the list fails to Close, the message names the member) and kept; the
 * rounding INFO and the S4.2 warning. Expected values are the S4.6 formulas
 * worked by hand for the two machines' topologies (Series X: 2 SEs x 2 SAs
 * of up to 14 CUs; Series S: 1 SE x 2 SAs of 10 CUs).
 */
#include "d3d12_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "gfx_pm4.h"

static void set_and_close(t_ctx *c, const D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC *d, HRESULT want)
{
	ID3D12GraphicsCommandList6_SetGraphicsShaderLimitsX(c->list, d);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c->list), want);
}

static void reopen(t_ctx *c)
{
	assert_int_equal(ID3D12CommandAllocator_Reset(c->alloc), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c->list, c->alloc, NULL), S_OK);
	char text[8];
	while (t_last_message(c, text, sizeof(text)))
		;
}

static void every_member_reaches_its_register(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC d;
	D3D12XboxInitializeDefaultGraphicsShaderLimits(&d);
	d.MaxWavesWithLateAllocParameterCache = 20; /* wave32 per SA -> 10 wave64 */
	d.VSDisableFlags = 0x2;
	d.PSDisableFlags = 0x4;
	d.GSDisableFlags = 0x8;
	d.DSDisableFlags = 0x10;
	/* chip-wide waves / 2 SEs / 16 */
	d.VSMaxWaves = 64;   /* 32 per SE: 2 */
	d.HSMaxWaves = 96;   /* 48: 3 */
	d.DSMaxWaves = 160;  /* 80: 5 */
	d.GSMaxWaves = 128;  /* 64: 4; the merged ES-GS stage takes the smaller: 4 */
	d.PSMaxWaves = 320;  /* 160: 10 */
	/* chip-wide waves / 4 SAs / 4 */
	d.VSMaxWavesForCuLocking = 16; /* 1 */
	d.HSMaxWavesForCuLocking = 32; /* 2 */
	d.DSMaxWavesForCuLocking = 48; /* 3; GS 4: the smaller, 3 */
	d.GSMaxWavesForCuLocking = 64;
	d.PSMaxWavesForCuLocking = 80; /* 5 */
	set_and_close(&c, &d, S_OK);
	regfile rf;
	regfile_of_list(c.list, &rf);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_VS", "CU_EN"), 0xfffd);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_PS", "CU_EN"), 0xfffb);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_GS", "CU_EN"), 0xffe7);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_HS", "CU_EN"), 0xffff);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_VS", "WAVE_LIMIT"), 2);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_HS", "WAVE_LIMIT"), 3);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_GS", "WAVE_LIMIT"), 4);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_PS", "WAVE_LIMIT"), 10);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_VS", "LOCK_LOW_THRESHOLD"), 1);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_HS", "LOCK_LOW_THRESHOLD"), 2);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_GS", "LOCK_LOW_THRESHOLD"), 3);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_PS", "LOCK_LOW_THRESHOLD"), 5);
	const char *rsrc4[] = { "SPI_SHADER_PGM_RSRC4_VS", "SPI_SHADER_PGM_RSRC4_PS", "SPI_SHADER_PGM_RSRC4_GS",
				"SPI_SHADER_PGM_RSRC4_HS" };
	for (int i = 0; i < 4; i++)
		assert_int_equal(field(&rf, rsrc4[i], "CU_EN"), 0xffff); /* no SA has CUs 16..31 */
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC4_GS", "SPI_SHADER_LATE_ALLOC_GS"), 0); /* NGG only */
	assert_int_equal(field(&rf, "SPI_SHADER_LATE_ALLOC_VS", "LIMIT"), 10);
	assert_int_equal(field(&rf, "GE_PC_ALLOC", "OVERSUB_EN"), 1);
	assert_int_equal(rf.index3, 8); /* every RSRC3/RSRC4 with the KMD CU mask */
	/* the DS members reach the merged ES-GS stage on their own */
	reopen(&c);
	D3D12XboxInitializeDefaultGraphicsShaderLimits(&d);
	d.MaxWavesWithLateAllocParameterCache = 0;
	d.DSDisableFlags = 0x1;
	d.DSMaxWaves = 160;
	d.DSMaxWavesForCuLocking = 48;
	set_and_close(&c, &d, S_OK);
	regfile_of_list(c.list, &rf);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_GS", "CU_EN"), 0xfffe);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_GS", "WAVE_LIMIT"), 5);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_GS", "LOCK_LOW_THRESHOLD"), 3);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_VS", "CU_EN"), 0xffff);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_VS", "WAVE_LIMIT"), 0); /* 0: no limit */
	assert_int_equal(field(&rf, "SPI_SHADER_LATE_ALLOC_VS", "LIMIT"), 0);
	assert_int_equal(field(&rf, "GE_PC_ALLOC", "OVERSUB_EN"), 0);
	t_close(&c);
}

/* One broken member: Close fails and the message is the rule's, naming it. */
static void broken(t_ctx *c, const D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC *d, int id, const char *what)
{
	reopen(c);
	ID3D12GraphicsCommandList6_SetGraphicsShaderLimitsX(c->list, d);
	char text[1024];
	assert_int_equal(t_last_message(c, text, sizeof(text)), id);
	assert_non_null(strstr(text, what));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c->list), E_INVALIDARG);
}

static void kept(t_ctx *c, const D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC *d)
{
	reopen(c);
	set_and_close(c, d, S_OK);
}

static void each_rule_broken_and_kept(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC d, def;
	D3D12XboxInitializeDefaultGraphicsShaderLimits(&def);
	kept(&c, &def);
	/* S4.3: Series X SAs have at most 14 CUs (bits 0..13) */
	d = def, d.VSDisableFlags = 1u << 14;
	broken(&c, &d, XS12_MESSAGE_ID_GFX_LIMITS_MASK, "VSDisableFlags 0x4000");
	d = def, d.PSDisableFlags = 0x3fff;
	broken(&c, &d, XS12_MESSAGE_ID_GFX_LIMITS_MASK, "disables every CU");
	d = def, d.GSDisableFlags = 0x80000000u;
	broken(&c, &d, XS12_MESSAGE_ID_GFX_LIMITS_MASK, "GSDisableFlags");
	d = def, d.DSDisableFlags = 0x3f00, d.GSDisableFlags = 0x00ff;
	broken(&c, &d, XS12_MESSAGE_ID_GFX_LIMITS_MASK, "merged ES-GS");
	d = def, d.PSDisableFlags = 0x1fff; /* CU 13 stays */
	kept(&c, &d);
	/* S4.4: 63 x 16 x 2 SEs = 2016 */
	d = def, d.VSMaxWaves = 2017;
	broken(&c, &d, XS12_MESSAGE_ID_GFX_LIMITS_MAX_WAVES, "VSMaxWaves 2017");
	d = def, d.HSMaxWaves = 5000;
	broken(&c, &d, XS12_MESSAGE_ID_GFX_LIMITS_MAX_WAVES, "HSMaxWaves");
	d = def, d.PSMaxWaves = 2016;
	kept(&c, &d);
	/* S4.5: 15 x 4 x 4 SAs = 240 */
	d = def, d.GSMaxWavesForCuLocking = 241;
	broken(&c, &d, XS12_MESSAGE_ID_GFX_LIMITS_CU_LOCKING, "GSMaxWavesForCuLocking 241");
	d = def, d.DSMaxWavesForCuLocking = 240;
	kept(&c, &d);
	/* S4.1: 63 wave64 = 126 wave32 */
	d = def, d.MaxWavesWithLateAllocParameterCache = 127;
	broken(&c, &d, XS12_MESSAGE_ID_GFX_LIMITS_LATE_ALLOC_RANGE, "127");
	d = def, d.MaxWavesWithLateAllocParameterCache = 126, d.VSDisableFlags = 0x2;
	kept(&c, &d);
	/* a NULL description */
	broken(&c, NULL, XS12_MESSAGE_ID_GFX_LIMITS_MASK, "NULL");
	t_close(&c);
	/* graphics limits on a COMPUTE list */
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_COMPUTE);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	broken(&c, &def, XS12_MESSAGE_ID_GFX_LIST_TYPE, "COMPUTE");
	t_close(&c);
}

/* Series S: one SE, SAs of 10 CUs. */
static void series_s_topology(void **state)
{
	(void)state;
	t_ctx c;
	XS12_DEVICE_DESC dd = { .Machine = XS12_MACHINE_SERIES_S, .DebugLayer = true };
	t_open_desc(&c, &dd, D3D12_COMMAND_LIST_TYPE_DIRECT);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC d, def;
	D3D12XboxInitializeDefaultGraphicsShaderLimits(&def);
	d = def, d.VSDisableFlags = 0x400;
	broken(&c, &d, XS12_MESSAGE_ID_GFX_LIMITS_MASK, "0x400");
	d = def, d.VSDisableFlags = 0x3ff;
	broken(&c, &d, XS12_MESSAGE_ID_GFX_LIMITS_MASK, "every CU");
	d = def, d.VSMaxWaves = 63 * 16 + 1; /* one SE */
	broken(&c, &d, XS12_MESSAGE_ID_GFX_LIMITS_MAX_WAVES, "1009");
	d = def, d.PSMaxWavesForCuLocking = 121; /* 15 x 4 x 2 SAs = 120 */
	broken(&c, &d, XS12_MESSAGE_ID_GFX_LIMITS_CU_LOCKING, "121");
	d = def, d.VSDisableFlags = 0x200, d.VSMaxWaves = 48, d.PSMaxWavesForCuLocking = 120;
	reopen(&c);
	set_and_close(&c, &d, S_OK);
	regfile rf;
	regfile_of_list(c.list, &rf);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_VS", "CU_EN"), 0xfdff);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_VS", "WAVE_LIMIT"), 3);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_PS", "LOCK_LOW_THRESHOLD"), 15);
	t_close(&c);
}

/* The rounding is reported (INFO), S4.2's risk warned, and neither when
 * the values need none. */
static void rounding_and_deadlock_messages(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC d, def;
	D3D12XboxInitializeDefaultGraphicsShaderLimits(&def);
	char text[1024];
	/* 100 waves: 50 per SE -> WAVE_LIMIT 4 = 128 waves */
	reopen(&c);
	d = def, d.VSMaxWaves = 100;
	ID3D12GraphicsCommandList6_SetGraphicsShaderLimitsX(c.list, &d);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_GFX_LIMITS_ROUNDED);
	assert_non_null(strstr(text, "S4.6"));
	assert_non_null(strstr(text, "WAVE_LIMIT 4"));
	assert_non_null(strstr(text, "128 waves"));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK); /* INFO: not a broken rule */
	/* an odd late-alloc value is rounded up to wave64 units */
	reopen(&c);
	d = def, d.MaxWavesWithLateAllocParameterCache = 21;
	ID3D12GraphicsCommandList6_SetGraphicsShaderLimitsX(c.list, &d);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_GFX_LIMITS_ROUNDED);
	assert_non_null(strstr(text, "LIMIT 11"));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	/* values that need no rounding: no message */
	reopen(&c);
	d = def, d.VSMaxWaves = 128, d.PSMaxWavesForCuLocking = 16;
	ID3D12GraphicsCommandList6_SetGraphicsShaderLimitsX(c.list, &d);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), 0);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	/* S4.2: above 22 with every CU open to VS */
	reopen(&c);
	d = def, d.MaxWavesWithLateAllocParameterCache = 24;
	ID3D12GraphicsCommandList6_SetGraphicsShaderLimitsX(c.list, &d);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_GFX_LIMITS_LATE_ALLOC_DEADLOCK);
	assert_non_null(strstr(text, "S4.2"));
	assert_non_null(strstr(text, "deadlock"));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK); /* a warning */
	/* kept: a VS CU disabled, or 22 */
	reopen(&c);
	d.VSDisableFlags = 0x2;
	ID3D12GraphicsCommandList6_SetGraphicsShaderLimitsX(c.list, &d);
	assert_false(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_GFX_LIMITS_LATE_ALLOC_DEADLOCK));
	ID3D12GraphicsCommandList6_SetGraphicsShaderLimitsX(c.list, &def);
	assert_false(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_GFX_LIMITS_LATE_ALLOC_DEADLOCK));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	t_close(&c);
}

/* A list with limits runs: the CP takes the registers. */
static void limits_list_executes(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC d;
	D3D12XboxInitializeDefaultGraphicsShaderLimits(&d);
	d.VSDisableFlags = 0x2;
	d.PSMaxWaves = 512;
	ID3D12GraphicsCommandList6_SetGraphicsShaderLimitsX(c.list, &d);
	assert_int_equal(t_run(&c), S_OK);
	t_close(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_member_reaches_its_register),
		cmocka_unit_test(each_rule_broken_and_kept),
		cmocka_unit_test(series_s_topology),
		cmocka_unit_test(rounding_and_deadlock_messages),
		cmocka_unit_test(limits_list_executes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
