// helpers.hpp — the boilerplate of the C++ examples, as a D3D12 sample's
// helper header has it: ThrowIfFailed, a file reader, committed buffers
// (d3dx12.h), a compute pipeline from an AMDGPU code object, and "execute
// and wait on a fence". Header-only, so each example is one file:
//
//   c++ -std=c++17 scratch_size.cpp $(pkg-config --cflags --libs xs12)
#pragma once

#include <xs12/d3d12_xs.h> // before anything that includes d3d12.h
#include <d3dx12.h>
#include <wrl/client.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

using Microsoft::WRL::ComPtr;

// Win32's names for XS12WaitForEvent (winadapter.h has no events).
#ifndef INFINITE
#define INFINITE 0xFFFFFFFFu
#endif

class HrException : public std::runtime_error {
public:
	HrException(HRESULT hr, const char *what)
		: std::runtime_error(std::string(what) + " failed: HRESULT " + Hex(hr)), hr_(hr) {}
	HRESULT Error() const { return hr_; }

private:
	static std::string Hex(HRESULT hr)
	{
		char s[16];
		std::snprintf(s, sizeof(s), "0x%08x", static_cast<unsigned>(hr));
		return s;
	}
	HRESULT hr_;
};

inline void ThrowIfFailed(HRESULT hr, const char *what = "a D3D12 call")
{
	if (FAILED(hr))
		throw HrException(hr, what);
}

inline std::vector<char> ReadFile(const std::string &path)
{
	std::ifstream f(path, std::ios::binary);
	if (!f)
		throw std::runtime_error("cannot open " + path);
	return std::vector<char>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// A committed buffer: DEFAULT (with UAV access), UPLOAD or READBACK.
inline ComPtr<ID3D12Resource> CreateBuffer(ID3D12Device *device, D3D12_HEAP_TYPE heap, UINT64 bytes)
{
	CD3DX12_HEAP_PROPERTIES props(heap);
	auto desc = CD3DX12_RESOURCE_DESC::Buffer(bytes, heap == D3D12_HEAP_TYPE_DEFAULT
								 ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS
								 : D3D12_RESOURCE_FLAG_NONE);
	D3D12_RESOURCE_STATES state = heap == D3D12_HEAP_TYPE_UPLOAD     ? D3D12_RESOURCE_STATE_GENERIC_READ
				      : heap == D3D12_HEAP_TYPE_READBACK ? D3D12_RESOURCE_STATE_COPY_DEST
									 : D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
	ComPtr<ID3D12Resource> buffer;
	ThrowIfFailed(device->CreateCommittedResource(&props, D3D12_HEAP_FLAG_NONE, &desc, state, nullptr,
						      IID_PPV_ARGS(&buffer)),
		      "CreateCommittedResource");
	return buffer;
}

template <typename T> ComPtr<ID3D12Resource> CreateUploadBuffer(ID3D12Device *device, const std::vector<T> &data)
{
	auto buffer = CreateBuffer(device, D3D12_HEAP_TYPE_UPLOAD, data.size() * sizeof(T));
	void *p;
	ThrowIfFailed(buffer->Map(0, nullptr, &p), "Map");
	std::memcpy(p, data.data(), data.size() * sizeof(T));
	buffer->Unmap(0, nullptr);
	return buffer;
}

template <typename T> std::vector<T> ReadBack(ID3D12Resource *readback, size_t count, size_t offsetBytes = 0)
{
	void *p;
	ThrowIfFailed(readback->Map(0, nullptr, &p), "Map");
	std::vector<T> v(count);
	std::memcpy(v.data(), static_cast<const char *>(p) + offsetBytes, count * sizeof(T));
	readback->Unmap(0, nullptr);
	return v;
}

// A compute pipeline of a code object's kernel (nullptr: its only one) and
// the root signature embedded in the same bytecode.
struct ComputePipeline {
	ComPtr<ID3D12RootSignature> rootSignature;
	ComPtr<ID3D12PipelineState> pso;
};

inline ComputePipeline CreateComputePipeline(ID3D12Device *device, const std::string &path,
					     const char *kernel = nullptr)
{
	std::vector<char> code = ReadFile(path);
	XS12_KERNEL_BYTECODE named = { XS12_KERNEL_BYTECODE_MAGIC, kernel, code.data(), code.size() };
	D3D12_SHADER_BYTECODE cs = { code.data(), code.size() };
	if (kernel)
		cs = { &named, sizeof(named) };
	ComputePipeline p;
	ThrowIfFailed(device->CreateRootSignature(0, cs.pShaderBytecode, cs.BytecodeLength,
						  IID_PPV_ARGS(&p.rootSignature)),
		      "CreateRootSignature");
	D3D12_COMPUTE_PIPELINE_STATE_DESC desc = {};
	desc.pRootSignature = p.rootSignature.Get();
	desc.CS = cs;
	ThrowIfFailed(device->CreateComputePipelineState(&desc, IID_PPV_ARGS(&p.pso)), "CreateComputePipelineState");
	return p;
}

// A fence and its event, for "wait until the queue got here".
class GpuFence {
public:
	explicit GpuFence(ID3D12Device *device) : event_(XS12CreateEvent())
	{
		ThrowIfFailed(device->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&fence_)), "CreateFence");
	}
	~GpuFence() { XS12CloseEvent(event_); }
	GpuFence(const GpuFence &) = delete;
	GpuFence &operator=(const GpuFence &) = delete;

	UINT64 Signal(ID3D12CommandQueue *queue)
	{
		ThrowIfFailed(queue->Signal(fence_.Get(), ++value_), "Signal");
		return value_;
	}
	void Wait(UINT64 value)
	{
		if (fence_->GetCompletedValue() < value) {
			ThrowIfFailed(fence_->SetEventOnCompletion(value, event_), "SetEventOnCompletion");
			XS12WaitForEvent(event_, INFINITE);
		}
	}
	ID3D12Fence *Get() const { return fence_.Get(); }

private:
	ComPtr<ID3D12Fence> fence_;
	HANDLE event_;
	UINT64 value_ = 0;
};

// Closes the list, executes it and waits for it.
inline void ExecuteAndWait(ID3D12CommandQueue *queue, ID3D12GraphicsCommandList *list, GpuFence &fence)
{
	ThrowIfFailed(list->Close(), "Close");
	ID3D12CommandList *lists[] = { list };
	queue->ExecuteCommandLists(1, lists);
	fence.Wait(fence.Signal(queue));
}

// kernels/private_spill.cl on the CPU: the reference of the scratch examples.
inline uint32_t PrivateSpillReference(const std::vector<uint32_t> &in, uint32_t i)
{
	uint32_t hist[64];
	for (uint32_t k = 0; k < 64; k++)
		hist[k] = k * 3u + i;
	uint32_t v = in[i % in.size()];
	for (uint32_t k = 0; k < 32; k++) {
		uint32_t idx = (v >> (k % 26)) & 63u;
		hist[idx] += v ^ k;
		v = v * 1664525u + 1013904223u;
	}
	uint32_t acc = 0;
	for (uint32_t k = 0; k < 64; k++)
		acc = acc * 31u + hist[(k * 7) & 63];
	return acc;
}
