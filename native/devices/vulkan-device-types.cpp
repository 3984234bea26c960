#include "vulkan-device-types.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

// The few Vulkan 1.0 declarations this needs, so that the build needs no Vulkan headers. Their layout is
// fixed by the specification (vulkan_core.h): a dispatchable handle is a pointer, an enum is 32 bits.
using VkInstance = void*;
using VkPhysicalDevice = void*;
using VkResult = int32_t;
constexpr int32_t VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO = 1;
constexpr int32_t VK_PHYSICAL_DEVICE_TYPE_CPU = 4;
constexpr size_t VK_MAX_PHYSICAL_DEVICE_NAME_SIZE = 256;

struct VkInstanceCreateInfo {
  int32_t sType;
  const void* pNext;
  uint32_t flags;
  const void* pApplicationInfo;
  uint32_t enabledLayerCount;
  const char* const* ppEnabledLayerNames;
  uint32_t enabledExtensionCount;
  const char* const* ppEnabledExtensionNames;
};

/** The head of VkPhysicalDeviceProperties; the driver writes the whole struct (~830 bytes), so it is read into a larger buffer. */
struct PhysicalDevicePropertiesHead {
  uint32_t apiVersion;
  uint32_t driverVersion;
  uint32_t vendorID;
  uint32_t deviceID;
  int32_t deviceType;
  char deviceName[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
};

using CreateInstance = VkResult (*)(const VkInstanceCreateInfo*, const void*, VkInstance*);
using DestroyInstance = void (*)(VkInstance, const void*);
using EnumeratePhysicalDevices = VkResult (*)(VkInstance, uint32_t*, VkPhysicalDevice*);
using GetPhysicalDeviceProperties = void (*)(VkPhysicalDevice, void*);

}  // namespace

std::set<std::string> vulkanCpuDeviceNames() {
  std::set<std::string> names;
  // Already loaded when the Vulkan build of llama.cpp is: then this takes the same loader.
  void* loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (loader == nullptr) return names;
  auto create = reinterpret_cast<CreateInstance>(dlsym(loader, "vkCreateInstance"));
  auto destroy = reinterpret_cast<DestroyInstance>(dlsym(loader, "vkDestroyInstance"));
  auto enumerate = reinterpret_cast<EnumeratePhysicalDevices>(dlsym(loader, "vkEnumeratePhysicalDevices"));
  auto properties = reinterpret_cast<GetPhysicalDeviceProperties>(dlsym(loader, "vkGetPhysicalDeviceProperties"));
  VkInstance instance = nullptr;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, nullptr, 0, nullptr, 0, nullptr, 0, nullptr};
  if (create != nullptr && destroy != nullptr && enumerate != nullptr && properties != nullptr && create(&info, nullptr, &instance) == 0) {
    uint32_t count = 0;
    if (enumerate(instance, &count, nullptr) == 0 && count > 0) {
      std::vector<VkPhysicalDevice> devices(count);
      if (enumerate(instance, &count, devices.data()) >= 0) {
        for (uint32_t index = 0; index < count; index++) {
          alignas(16) unsigned char buffer[4096] = {};
          properties(devices[index], buffer);
          PhysicalDevicePropertiesHead head;
          std::memcpy(&head, buffer, sizeof(head));
          head.deviceName[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE - 1] = '\0';
          if (head.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) names.insert(head.deviceName);
        }
      }
    }
    destroy(instance, nullptr);
  }
  dlclose(loader);
  return names;
}
