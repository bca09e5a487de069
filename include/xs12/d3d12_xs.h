/*
 * d3d12_xs.h — the D3D12 API of xs12 with the Xbox Series extensions.
 *
 * The one header a client includes: it includes Microsoft's own d3d12.h
 * (Debian's directx-headers-dev; `pkg-config --cflags --libs xs12` gives
 * its folders as -isystem and links -lDirectX-Guids) and adds
 *
 *   ID3D12PipelineState::GetInformationX                       (SPEC S1.11)
 *   ID3D12GraphicsCommandList6::SetShaderScratchSpaceX          (S1)
 *   ID3D12GraphicsCommandList6::DispatchRaysX                   (S2)
 *   ID3D12GraphicsCommandList6::SetComputeShaderLaunchParametersX (S3)
 *   ID3D12GraphicsCommandList6::SetGraphicsShaderLimitsX        (S4; the
 *       documentation names no method: this name is xs12's)
 *   ID3D12StateObjectProperties::GetInformationX                (S2.4)
 *
 * appended to the official interfaces, so the official methods keep their
 * vtable slots and code written for plain D3D12 works on these objects.
 * Flag and enum values the documentation does not publish are xs12's own
 * (docs/spec.md says which).
 *
 * C++: the three interfaces are declared here instead of in d3d12.h, with
 * the official methods in official order and the X methods after them; the
 * type names stay the official ones (ComPtr, IID_PPV_ARGS and __uuidof work).
 * Include this header before anything that includes d3d12.h.
 * ID3D12GraphicsCommandList7/8 are not available: their official slots 80
 * and 81 are where the Xbox methods sit (QueryInterface for them fails).
 *
 * C: the official C interfaces with COBJMACROS, plus
 * ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(list, ...) and the other
 * X call macros, and the ID3DBlob_* aliases d3dcommon.h lacks.
 */
#ifndef XS12_D3D12_XS_H
#define XS12_D3D12_XS_H

#if defined(__d3d12_h__)
#error "include <d3d12_xs.h> before <d3d12.h>: it declares ID3D12PipelineState and ID3D12GraphicsCommandList6 with the Xbox methods"
#endif

#include <wsl/winadapter.h>

#if defined(__cplusplus) && !defined(CINTERFACE)
#define XS12_D3D12_CXX 1
/* Skip the official C++ declarations of the extended interfaces (and of
 * the command lists that derive from List6); re-declared below. */
#define __ID3D12PipelineState_INTERFACE_DEFINED__
#define __ID3D12StateObjectProperties_INTERFACE_DEFINED__
#define __ID3D12GraphicsCommandList6_INTERFACE_DEFINED__
#define __ID3D12GraphicsCommandList7_INTERFACE_DEFINED__
#define __ID3D12GraphicsCommandList8_INTERFACE_DEFINED__
#endif

#include <d3d12.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* The Xbox types use anonymous unions of bit fields, as documented; they
 * are C11 and a GNU extension in C++. */
#if defined(__cplusplus) || !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L
#define XS12_ANON __extension__
#else
#define XS12_ANON
#endif

/* ---- S1: SetShaderScratchSpaceX ----------------------------------------- */

typedef enum D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS {
	D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_NONE = 0,
	D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE = 0x1,   /* COMPUTE_TMPRING_SIZE (S1.2, xs12's value) */
	D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_GRAPHICS = 0x2,  /* SPI_TMPRING_SIZE */
	D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_BOTH = 0x3,
} D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS;

/* S1.11: ID3D12PipelineState::GetInformationX(..., 0, &blob): the blob
 * holds one UINT, the scratch per wave in units of 256 DWORDs (1 KB). */
typedef enum D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE {
	D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW = 0,
} D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE;

/* ---- S3: compute shader launch parameters -------------------------------- */

typedef enum D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAGS {
	D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_NONE = 0,
	D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_LDS_SIZE = 0x1,      /* S3.2, xs12's value */
	D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_NUM_THREADS = 0x2,   /* thread-group dimensions */
} D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAGS;

typedef struct D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS {
	XS12_ANON union {
		XS12_ANON struct {
			UINT Flags : 7;       /* D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAGS */
			UINT LDSSize : 9;     /* per group, units of 128 DWORDs (512 bytes), 0..128 (S3.3) */
			UINT NumThreadZ : 16; /* S3.4 */
		};
		UINT Dword0;
	};
	XS12_ANON union {
		XS12_ANON struct {
			UINT NumThreadX : 16;
			UINT NumThreadY : 16;
		};
		UINT Dword1;
	};
} D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS;

/* An indirect argument (S3.1): 8 bytes, the two dwords above. */
#define D3D12XBOX_INDIRECT_ARGUMENT_TYPE_COMPUTE_SHADER_LAUNCH_PARAMETERSX ((D3D12_INDIRECT_ARGUMENT_TYPE)0x100)

/* ---- S2: DispatchRaysX ----------------------------------------------------------- */

typedef struct D3D12XBOX_DISPATCH_RAYS_DESC {
	D3D12_DISPATCH_RAYS_DESC DispatchArgs;
	D3D12_GPU_VIRTUAL_ADDRESS_RANGE Scratch;   /* the title's ray stack memory (S2.1) */
} D3D12XBOX_DISPATCH_RAYS_DESC;

typedef struct D3D12XBOX_RAYTRACING_INFORMATION {
	UINT ScratchSize;    /* bytes of scratch per lane (S2.4) */
} D3D12XBOX_RAYTRACING_INFORMATION;

/* ---- S4: graphics shader limits ------------------------------------------------ */

typedef UINT D3D12XBOX_SHADER_UNIT_DISABLE_FLAGS;   /* a bit per CU the stage may not use (S4.3) */

/* Member order: the documentation's member list (S4.6). */
typedef struct D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC {
	UINT MaxWavesWithLateAllocParameterCache;    /* S4.1, S4.2 */
	XS12_ANON union {
		D3D12XBOX_SHADER_UNIT_DISABLE_FLAGS VSDisableFlags;
		D3D12XBOX_SHADER_UNIT_DISABLE_FLAGS VSDisableCUMask;   /* the remarks' name (S4.3) */
	};
	D3D12XBOX_SHADER_UNIT_DISABLE_FLAGS DSDisableFlags;
	D3D12XBOX_SHADER_UNIT_DISABLE_FLAGS GSDisableFlags;
	D3D12XBOX_SHADER_UNIT_DISABLE_FLAGS PSDisableFlags;
	UINT VSMaxWaves, HSMaxWaves, DSMaxWaves, GSMaxWaves, PSMaxWaves;    /* S4.4 */
	UINT VSMaxWavesForCuLocking, HSMaxWavesForCuLocking, DSMaxWavesForCuLocking, GSMaxWavesForCuLocking,
	     PSMaxWavesForCuLocking;                                       /* S4.5 */
} D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC;

/* The IDs of xs12's debug-layer messages (ID3D12InfoQueue): above
 * D3D12_MESSAGE_ID_D3D12_MESSAGES_END, one per row of xs12_messages.def,
 * e.g. XS12_MESSAGE_ID_SCRATCH_DEST_ALIGN for S1.3. */
typedef enum XS12_MESSAGE_ID {
	XS12_MESSAGE_ID_BASE = 10000,
#define XS_MSG(name, severity, category, rule, summary) XS12_MESSAGE_ID_##name,
#include "xs12_messages.def"
#undef XS_MSG
	XS12_MESSAGE_ID_END
} XS12_MESSAGE_ID;

/* DXGI's "not now" (DRED output before a removal); winadapter.h lacks it. */
#ifndef DXGI_ERROR_NOT_CURRENTLY_AVAILABLE
#define DXGI_ERROR_NOT_CURRENTLY_AVAILABLE ((HRESULT)0x887A0022L)
#endif

/* DRED auto-breadcrumb operations of the Xbox methods (xs12's values, after
 * D3D12_AUTO_BREADCRUMB_OP's). */
#define XS12_AUTO_BREADCRUMB_OP_SETSHADERSCRATCHSPACEX ((D3D12_AUTO_BREADCRUMB_OP)0x100)
#define XS12_AUTO_BREADCRUMB_OP_DISPATCHRAYSX ((D3D12_AUTO_BREADCRUMB_OP)0x101)
#define XS12_AUTO_BREADCRUMB_OP_SETCOMPUTESHADERLAUNCHPARAMETERSX ((D3D12_AUTO_BREADCRUMB_OP)0x102)
#define XS12_AUTO_BREADCRUMB_OP_SETGRAPHICSSHADERLIMITSX ((D3D12_AUTO_BREADCRUMB_OP)0x103)

/* ---- what D3D12 has no word for: xs12's device ------------------------------------ */

typedef enum XS12_MACHINE {
	XS12_MACHINE_SERIES_X = 0,
	XS12_MACHINE_SERIES_S = 1,
} XS12_MACHINE;

typedef struct XS12_DEVICE_DESC {
	XS12_MACHINE Machine;
	BOOL DebugLayer;              /* as ID3D12Debug::EnableDebugLayer before D3D12CreateDevice */
	/* The driver's default scratch (S1.8: one allocation shared by graphics
	 * and compute): slots of its rings; 0 = 4 per CU. The "specialized
	 * device creation" of the documentation. */
	UINT DefaultScratchWaves;
	BOOL Functional;              /* no timing model: fastest, cycles are issue counts */
	UINT HostThreads;             /* functional mode; 0 = all cores */
	/* Hang detection (0 = default 2 s GPU time / 10 s host time; 0xffffffff = off). */
	UINT HangGpuMicroseconds, HangHostMilliseconds;
	UINT64 WaveInstructionBudget; /* 0 = none */
	/* Record every submission for `xs12 pm4` / `xs12 replay` (also: the
	 * XS12_RECORD environment variable, for an unmodified program). */
	const char *RecordPath;
	/* Write the GPU's timeline as Chrome trace / Perfetto JSON here when the
	 * device is released: a counter track per shader stage (compute, VS, PS
	 * waves), a track per queue with its dispatches and draws, a track per
	 * wave slot (also: the XS12_TRACE environment variable). */
	const char *TracePath;
	/* Per-instruction timing of everything the device runs (timing mode),
	 * written here when the device is released: PATH.html one page, .json,
	 * or text (also: the XS12_PROFILE environment variable). */
	const char *ProfilePath;
	/* Host threads of the timing model: 0 or 1 = one; 2 = the waves' run
	 * ahead on a second (the same results for waves that share data only
	 * across barriers; xs_device_desc.timing_threads). */
	UINT TimingHostThreads;
} XS12_DEVICE_DESC;

HRESULT WINAPI XS12CreateDevice(const XS12_DEVICE_DESC *pDesc, REFIID riid, void **ppDevice);

/* Events for ID3D12Fence::SetEventOnCompletion (there are no Win32 events
 * here; a NULL event blocks until the value is reached, as D3D12 has it).
 * XS12WaitForEvent returns 0 (WAIT_OBJECT_0), 0x102 (WAIT_TIMEOUT) or
 * 0xFFFFFFFF; Milliseconds 0xFFFFFFFF waits without limit. */
HANDLE WINAPI XS12CreateEvent(void);
DWORD WINAPI XS12WaitForEvent(HANDLE hEvent, DWORD Milliseconds);
BOOL WINAPI XS12CloseEvent(HANDLE hEvent);

/* What the GPU model measured for one dispatch of a command list's latest
 * execution (what RGP shows; D3D12 has no word for it): the index-th
 * Dispatch or ExecuteIndirect command of the list, in recording order.
 * Cycles are of the shader clock (GetTimestampFrequency). Returns
 * DXGI_ERROR_NOT_CURRENTLY_AVAILABLE until that execution has completed
 * (the call lets the GPU run), E_INVALIDARG for an index past the list's. */
typedef struct XS12_DISPATCH_STATISTICS {
	UINT64 StartCycle, EndCycle, Cycles;
	double Microseconds;
	UINT64 WavesLaunched, WaveInstructions;
	UINT PeakWavesInFlight, PeakWavesPerSimd;
	double AverageWavesPerSimd;         /* over the dispatch's time, all SIMDs */
	UINT ScratchSlots, PeakScratchSlots; /* of its ring (COMPUTE_TMPRING_SIZE.WAVES, at most 32 per CU) */
	/* wave-cycles ready waves waited to launch, by what they waited for:
	 * wave slot, VGPRs, LDS, barrier, scratch slot, CU mask or limit */
	UINT64 WaitCycles[6];
} XS12_DISPATCH_STATISTICS;

HRESULT WINAPI XS12GetDispatchStatistics(ID3D12GraphicsCommandList *pList, UINT Index,
					 XS12_DISPATCH_STATISTICS *pStatistics);

/* What the GPU model measured for one draw of a command list's latest
 * execution: the index-th Draw*Instanced (or draw of an ExecuteIndirect) of
 * the list, in recording order; the same availability rules as
 * XS12GetDispatchStatistics. The graphics pipe's observables
 * (docs/graphics.md section 3.8): the SPEC S4 figures per stage. */
typedef struct XS12_DRAW_STATISTICS {
	UINT64 StartCycle, EndCycle, Cycles;
	double Microseconds;
	UINT64 Vertices, Primitives, PrimitivesCulled, PrimitivesClipped;
	UINT64 Quads, PixelsShaded, PixelsWritten, QuadsDepthKilled;
	UINT64 VSWaves, PSWaves;                /* launched */
	UINT PeakVSWaves, PeakPSWaves;           /* resident at once (S4.4) */
	UINT64 VSCuMask, PSCuMask;               /* bit per CU (chip-wide) that ran a wave of the stage (S4.3) */
	UINT LateAllocWaves;                     /* VS waves launched without parameter-cache space (S4.1) */
	UINT PeakLateWaiting;                    /* of those, waiting at their first exp at once */
	UINT64 ExpStallCycles;                   /* wave-cycles VS waves waited at exp (S4.1) */
	UINT ParameterCacheLines, PeakParameterCacheLines;
	UINT64 CuLockEvents, CuLockCycles;       /* S4.5 */
	UINT ScratchSlots, PeakScratchSlots;     /* of the graphics ring (SPI_TMPRING_SIZE) */
} XS12_DRAW_STATISTICS;

HRESULT WINAPI XS12GetDrawStatistics(ID3D12GraphicsCommandList *pList, UINT Index, XS12_DRAW_STATISTICS *pStatistics);

/* Hardware counters of a dispatch of a list's latest execution, as rocprof
 * reads them (the same index and availability rules as
 * XS12GetDispatchStatistics). Valid in timing mode; functional mode fills
 * only WavesPerSE. Lines are the L2's 128 bytes. Instructions by class:
 * SALU, SMEM, branch, message, VALU, VALU transcendental, VALU FP64, LDS,
 * vector memory load, store, atomic, export, internal. */
typedef struct XS12_DISPATCH_COUNTERS {
	BOOL Valid;
	UINT64 Instructions[13];
	UINT64 L0Hits, L0Misses;               /* vector L0 (per CU), load lines */
	UINT64 L2Hits, L2Misses;               /* L0 misses, stores and atomics */
	UINT64 DramReadBytes, DramWriteBytes;  /* L2 fills, dirty lines written back */
	double DramGBps;
	UINT64 VmemReadBytes, VmemWriteBytes;  /* what the active lanes asked for */
	UINT64 ScratchReadBytes, ScratchWriteBytes; /* of them, private memory */
	UINT64 LdsBytes;                       /* over the LDS bus */
	double ValuBusyPercent, SaluBusyPercent; /* of the dispatch's time, averaged over the SIMDs */
	UINT64 WavesPerSE[4];
	UINT64 LdsBankConflictCycles;          /* LDS bus clocks lost to bank conflicts */
} XS12_DISPATCH_COUNTERS;

HRESULT WINAPI XS12GetDispatchCounters(ID3D12GraphicsCommandList *pList, UINT Index,
				       XS12_DISPATCH_COUNTERS *pCounters);

/* Per-instruction timing, as RGP shows it, of what the device runs from now
 * on: Enable TRUE starts (clearing what was collected), FALSE stops. Timing
 * mode only (DXGI_ERROR_UNSUPPORTED on a functional device). */
HRESULT WINAPI XS12SetProfiling(ID3D12Device *pDevice, BOOL Enable);
/* Writes what was collected: PATH.html (annotated ISA, hot spots, stalls,
 * occupancy, dispatches per queue), .json ("xs12-profile-1"), or text.
 * E_INVALIDARG for NULL or when not collecting; E_FAIL when the file cannot
 * be written. */
HRESULT WINAPI XS12WriteProfile(ID3D12Device *pDevice, const char *pPath);

/* The CS bytecode of a pipeline that picks one kernel of a code object
 * with several: D3D12_SHADER_BYTECODE { &kb, sizeof(kb) }. */
#define XS12_KERNEL_BYTECODE_MAGIC 0x42534b58u /* "XKSB" */
typedef struct XS12_KERNEL_BYTECODE {
	UINT Magic;                  /* XS12_KERNEL_BYTECODE_MAGIC */
	const char *KernelName;
	const void *pCodeObject;     /* an AMDGPU code object: ELF or offload bundle */
	SIZE_T CodeObjectSize;
} XS12_KERNEL_BYTECODE;

#if defined(__cplusplus)
}
#endif

/* ---- the extended interfaces ----------------------------------------------------------- */

#if defined(XS12_D3D12_CXX)

MIDL_INTERFACE("765a30f3-f624-4c6f-a828-ace948622445")
ID3D12PipelineState : public ID3D12Pageable
{
public:
	virtual HRESULT STDMETHODCALLTYPE GetCachedBlob(ID3DBlob **ppBlob) = 0;
	virtual HRESULT STDMETHODCALLTYPE GetInformationX(D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE Type, UINT Flags,
							  ID3DBlob **ppBlob) = 0;
};

MIDL_INTERFACE("de5fa827-9bf9-4f26-89ff-d7f56fde3860")
ID3D12StateObjectProperties : public IUnknown
{
public:
	virtual void *STDMETHODCALLTYPE GetShaderIdentifier(LPCWSTR pExportName) = 0;
	virtual UINT64 STDMETHODCALLTYPE GetShaderStackSize(LPCWSTR pExportName) = 0;
	virtual UINT64 STDMETHODCALLTYPE GetPipelineStackSize(void) = 0;
	virtual void STDMETHODCALLTYPE SetPipelineStackSize(UINT64 PipelineStackSizeInBytes) = 0;
	virtual HRESULT STDMETHODCALLTYPE GetInformationX(UINT Flags, D3D12XBOX_RAYTRACING_INFORMATION *pInformation) = 0;
};

MIDL_INTERFACE("c3827890-e548-4cfa-96cf-5689a9370f80")
ID3D12GraphicsCommandList6 : public ID3D12GraphicsCommandList5
{
public:
	virtual void STDMETHODCALLTYPE DispatchMesh(UINT ThreadGroupCountX, UINT ThreadGroupCountY,
						    UINT ThreadGroupCountZ) = 0;
	virtual void STDMETHODCALLTYPE SetShaderScratchSpaceX(D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS Flags,
							      D3D12_GPU_VIRTUAL_ADDRESS Destination, UINT64 SizeBytes,
							      UINT SizePerWaveInBytes) = 0;
	virtual void STDMETHODCALLTYPE DispatchRaysX(const D3D12XBOX_DISPATCH_RAYS_DESC *pDesc) = 0;
	virtual void STDMETHODCALLTYPE SetComputeShaderLaunchParametersX(
		const D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS *pParameters) = 0;
	virtual void STDMETHODCALLTYPE SetGraphicsShaderLimitsX(const D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC *pDesc) = 0;
};

DEFINE_ENUM_FLAG_OPERATORS(D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS)

#include <dxguids/dxguids.h>
/* dxguids.h has no __uuidof entry for ID3DBlob (ComPtr<ID3DBlob>::As). */
__CRT_UUID_DECL(ID3D10Blob, 0x8ba5fb08, 0x5195, 0x40e2, 0xac, 0x58, 0x0d, 0x98, 0x9c, 0x3a, 0x01, 0x02)

#else /* C, or C++ with CINTERFACE */

/* Vtables: the official one first, the X methods after it. An object's
 * lpVtbl points at the official part; the macros below reach the rest. */
typedef struct ID3D12PipelineStateXVtbl {
	ID3D12PipelineStateVtbl Base;
	HRESULT(STDMETHODCALLTYPE *GetInformationX)(ID3D12PipelineState *This, D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE Type,
						    UINT Flags, ID3DBlob **ppBlob);
} ID3D12PipelineStateXVtbl;

typedef struct ID3D12StateObjectPropertiesXVtbl {
	ID3D12StateObjectPropertiesVtbl Base;
	HRESULT(STDMETHODCALLTYPE *GetInformationX)(ID3D12StateObjectProperties *This, UINT Flags,
						    D3D12XBOX_RAYTRACING_INFORMATION *pInformation);
} ID3D12StateObjectPropertiesXVtbl;

typedef struct ID3D12GraphicsCommandList6XVtbl {
	ID3D12GraphicsCommandList6Vtbl Base;
	void(STDMETHODCALLTYPE *SetShaderScratchSpaceX)(ID3D12GraphicsCommandList6 *This,
							D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS Flags,
							D3D12_GPU_VIRTUAL_ADDRESS Destination, UINT64 SizeBytes,
							UINT SizePerWaveInBytes);
	void(STDMETHODCALLTYPE *DispatchRaysX)(ID3D12GraphicsCommandList6 *This, const D3D12XBOX_DISPATCH_RAYS_DESC *pDesc);
	void(STDMETHODCALLTYPE *SetComputeShaderLaunchParametersX)(ID3D12GraphicsCommandList6 *This,
								   const D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS *pParameters);
	void(STDMETHODCALLTYPE *SetGraphicsShaderLimitsX)(ID3D12GraphicsCommandList6 *This,
							  const D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC *pDesc);
} ID3D12GraphicsCommandList6XVtbl;

#define XS12_XVTBL(T, This) ((const T##XVtbl *)(const void *)(This)->lpVtbl)
#define ID3D12PipelineState_GetInformationX(This, Type, Flags, ppBlob) \
	(XS12_XVTBL(ID3D12PipelineState, This)->GetInformationX(This, Type, Flags, ppBlob))
#define ID3D12StateObjectProperties_GetInformationX(This, Flags, pInformation) \
	(XS12_XVTBL(ID3D12StateObjectProperties, This)->GetInformationX(This, Flags, pInformation))
#define ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(This, Flags, Destination, SizeBytes, SizePerWaveInBytes) \
	(XS12_XVTBL(ID3D12GraphicsCommandList6, This)->SetShaderScratchSpaceX(This, Flags, Destination, SizeBytes,   \
										 SizePerWaveInBytes))
#define ID3D12GraphicsCommandList6_DispatchRaysX(This, pDesc) \
	(XS12_XVTBL(ID3D12GraphicsCommandList6, This)->DispatchRaysX(This, pDesc))
#define ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(This, pParameters) \
	(XS12_XVTBL(ID3D12GraphicsCommandList6, This)->SetComputeShaderLaunchParametersX(This, pParameters))
#define ID3D12GraphicsCommandList6_SetGraphicsShaderLimitsX(This, pDesc) \
	(XS12_XVTBL(ID3D12GraphicsCommandList6, This)->SetGraphicsShaderLimitsX(This, pDesc))

#if defined(COBJMACROS)
/* d3dcommon.h defines ID3DBlob as ID3D10Blob but only the ID3D10Blob_* macros. */
#define ID3DBlob_QueryInterface ID3D10Blob_QueryInterface
#define ID3DBlob_AddRef ID3D10Blob_AddRef
#define ID3DBlob_Release ID3D10Blob_Release
#define ID3DBlob_GetBufferPointer ID3D10Blob_GetBufferPointer
#define ID3DBlob_GetBufferSize ID3D10Blob_GetBufferSize
#endif

#endif /* C */

/* The inline helper of S4.6, with xs12's defaults (docs/spec.md). */
static inline void D3D12XboxInitializeDefaultGraphicsShaderLimits(D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC *pDesc)
{
#if defined(__cplusplus)
	D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC d = {}; /* { 0 } is -Wmissing-field-initializers in C++ */
#else
	D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC d = { 0 };
#endif
	d.MaxWavesWithLateAllocParameterCache = 22; /* the largest value S4.2 calls safe */
	*pDesc = d;                                 /* masks 0 (all CUs), max waves 0 (no limit) */
}

#endif /* XS12_D3D12_XS_H */
