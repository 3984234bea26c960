// Which Vulkan physical devices are CPUs (Mesa's llvmpipe, SwiftShader): ggml reports every
// device it enumerates as a GPU, and enumerates CPU-type ones only when GGML_VK_VISIBLE_DEVICES
// names them, so "auto" asks the Vulkan loader itself rather than trusting a device's name.
#pragma once

#include <set>
#include <string>

/**
 * Names (VkPhysicalDeviceProperties::deviceName, which ggml-vulkan gives as the device's
 * description) of the Vulkan physical devices whose type is CPU. Empty when there is no
 * Vulkan loader or it finds no device; never throws.
 */
std::set<std::string> vulkanCpuDeviceNames();
