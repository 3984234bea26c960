import { loadLlama } from "../../src/inference/llama/load-llama.js";

/**
 * The device project's Vulkan build, loaded before any test asks for "cpu" (a process runs one llama.cpp
 * build; "cpu" then takes that build's CPU device, the same ggml-cpu library as the CPU build's). Without a
 * Vulkan driver (Mesa's `mesa-vulkan-drivers` gives llvmpipe) the device tests skip and say why — except
 * under SELFPLAY_REQUIRE_VULKAN=1, as CI sets it: there a missing device is a failure.
 */
async function loadVulkan(): Promise<{ available: boolean; reason?: string }> {
  try {
    const llama = await loadLlama("vulkan");
    const names = await llama.getGpuDeviceNames();
    if (names.length === 0) return { available: false, reason: "node-llama-cpp's Vulkan build found no device (GGML_VK_VISIBLE_DEVICES unset, or no Vulkan driver)" };
    return { available: true };
  } catch (error) {
    return { available: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

export const vulkan = await loadVulkan();

if (!vulkan.available) {
  if (process.env.SELFPLAY_REQUIRE_VULKAN === "1") throw new Error(`SELFPLAY_REQUIRE_VULKAN=1 but no Vulkan device: ${vulkan.reason ?? ""}`);
  console.warn(`device tests skipped: ${vulkan.reason ?? ""}`);
}
