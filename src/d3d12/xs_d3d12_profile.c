/*
 * Instruction timing of a D3D12 device (d3d12_xs.h: XS12SetProfiling,
 * XS12WriteProfile, XS12_PROFILE): the runtime's profile, shared with the
 * native API (src/runtime/xs_rt_profile.c). The pipelines' code objects are
 * loaded through the runtime, which names their functions; ones released
 * while the profile is on stay known to it until it is written.
 */
#include "d3d12/xs_d3d12_private.h"
#include "runtime/xs_rt_profile.h"

#include <stdio.h>

static HRESULT write_profile(d3d12_device *d, const char *path)
{
	xs_err e = { 0 };
	xs_profile *p = NULL;
	xs_rt_poll(d->rt); /* what was submitted has run */
	xs_status st = xs_rt_profile_take(d->rt, &p, &e);
	if (!st)
		st = xs_rt_profile_write(p, path, &e);
	xs_rt_profile_free(p);
	if (st)
		d3d12_message_err(d, &e);
	return st == XS_OK ? S_OK : st == XS_E_IO ? E_FAIL : st == XS_E_OUT_OF_MEMORY ? E_OUTOFMEMORY : E_INVALIDARG;
}

XS_D3D12_EXPORT HRESULT WINAPI XS12SetProfiling(ID3D12Device *device, BOOL enable)
{
	d3d12_device *d = d3d12_device_from_iface(device);
	if (!d)
		return E_INVALIDARG;
	if (enable && d->rt->functional)
		return DXGI_ERROR_UNSUPPORTED;
	xs_err e = { 0 };
	xs_status st = xs_rt_profile_enable(d->rt, enable != FALSE, &e);
	return st == XS_OK ? S_OK : E_OUTOFMEMORY;
}

XS_D3D12_EXPORT HRESULT WINAPI XS12WriteProfile(ID3D12Device *device, const char *path)
{
	d3d12_device *d = d3d12_device_from_iface(device);
	if (!d || !path)
		return E_INVALIDARG;
	return write_profile(d, path);
}

void d3d12_profile_release(d3d12_device *d)
{
	if (!d->profile_path)
		return;
	if (write_profile(d, d->profile_path) != S_OK)
		fprintf(stderr, "xs12 D3D12: XS12_PROFILE: cannot write %s\n", d->profile_path);
	free(d->profile_path);
	d->profile_path = NULL;
}
