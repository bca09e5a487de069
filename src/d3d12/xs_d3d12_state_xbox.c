/* The Xbox extension of pipeline state objects: GetInformationX (S1.11). */
#include "d3d12/xs_d3d12_private.h"

/* S1.11: the scratch a pipeline needs per wave, one UINT in units of 256
 * DWORDs (1 KB): roundup(lane bytes x wave size, 1 KB), 0 without scratch. */
HRESULT STDMETHODCALLTYPE d3d12_pipeline_GetInformationX(ID3D12PipelineState *This,
							 D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE type, UINT flags,
							 ID3DBlob **blob)
{
	d3d12_pipeline *p = d3d12_pipeline_from_iface(This);
	if (!p || !blob)
		return E_INVALIDARG;
	*blob = NULL;
	if (type != D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW || flags) {
		d3d12_message(p->obj.device, XS_MSG_PIPELINE_INFO_TYPE,
			      "GetInformationX: type %d, flags 0x%x: xs12 knows SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW "
			      "with flags 0 (a failed query means 0)", (int)type, flags);
		return E_INVALIDARG;
	}
	UINT units = (UINT)(p->scratch_per_wave / 1024);
	return d3d12_blob_create(&units, sizeof(units), blob);
}
