#include "ggml-devices.h"

#include <stdexcept>

#include "vulkan-device-types.h"

namespace {

const char* typeName(enum ggml_backend_dev_type type) {
  switch (type) {
    case GGML_BACKEND_DEVICE_TYPE_CPU: return "cpu";
    case GGML_BACKEND_DEVICE_TYPE_GPU: return "gpu";
    case GGML_BACKEND_DEVICE_TYPE_IGPU: return "igpu";
    default: return "accel";
  }
}

}  // namespace

std::vector<GgmlDeviceInfo> listGgmlDevices(const GgmlLibrary& ggml) {
  std::vector<GgmlDeviceInfo> devices;
  bool vulkan = false;
  for (size_t index = 0; index < ggml.ggml_backend_dev_count(); index++) {
    ggml_backend_dev_t device = ggml.ggml_backend_dev_get(index);
    GgmlDeviceInfo info;
    info.name = ggml.ggml_backend_dev_name(device);
    info.description = ggml.ggml_backend_dev_description(device);
    info.backend = ggml.ggml_backend_reg_name(ggml.ggml_backend_dev_backend_reg(device));
    info.type = typeName(ggml.ggml_backend_dev_type(device));
    ggml.ggml_backend_dev_memory(device, &info.memoryFree, &info.memoryTotal);
    vulkan = vulkan || info.backend == "Vulkan";
    devices.push_back(info);
  }
  if (vulkan) {
    const std::set<std::string> software = vulkanCpuDeviceNames();
    for (GgmlDeviceInfo& info : devices) info.software = info.backend == "Vulkan" && software.count(info.description) > 0;
  }
  return devices;
}

ggml_backend_dev_t findGgmlDevice(const GgmlLibrary& ggml, const std::string& name) {
  ggml_backend_dev_t device = ggml.ggml_backend_dev_by_name(name.c_str());
  if (device != nullptr) return device;
  std::string found;
  for (size_t index = 0; index < ggml.ggml_backend_dev_count(); index++) {
    found += (found.empty() ? "" : ", ") + std::string(ggml.ggml_backend_dev_name(ggml.ggml_backend_dev_get(index)));
  }
  throw std::invalid_argument("device: ggml has no device " + name + " (found: " + found + ")");
}

bool isCpuDevice(const GgmlLibrary& ggml, ggml_backend_dev_t device) {
  return device != nullptr && device == ggml.ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
}
