// The devices of the bound llama.cpp build's ggml (CPU, and CUDA or Vulkan where that build has
// them), as the engine and the trainer choose among them by name ("CPU", "CUDA0", "Vulkan1").
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "../ggml-library.h"

struct GgmlDeviceInfo {
  /** ggml's name: "CPU", "CUDA0", "Vulkan0" … */
  std::string name;
  /** What the driver calls it, e.g. "NVIDIA H100 80GB HBM3" or "llvmpipe (LLVM 15.0.6, 256 bits)". */
  std::string description;
  /** The backend registry: "CPU", "CUDA", "Vulkan" … */
  std::string backend;
  /** "cpu", "gpu", "igpu" or "accel" (ggml_backend_dev_type). */
  std::string type;
  size_t memoryFree = 0;
  size_t memoryTotal = 0;
  /** A Vulkan device whose Vulkan type is CPU (a software rasteriser), which ggml reports as a GPU. */
  bool software = false;
};

std::vector<GgmlDeviceInfo> listGgmlDevices(const GgmlLibrary& ggml);

/** The device ggml calls `name`; std::invalid_argument naming the devices there are when none is. */
ggml_backend_dev_t findGgmlDevice(const GgmlLibrary& ggml, const std::string& name);

/** Whether `device` is ggml's CPU device (the one that runs the trainer's custom kernels). */
bool isCpuDevice(const GgmlLibrary& ggml, ggml_backend_dev_t device);
