import { loadLlama } from "../../src/inference/llama/load-llama.js";

// A process runs one llama.cpp build: the device project's is node-llama-cpp's Vulkan build, loaded before any
// test asks for "cpu" (which then takes that build's CPU device, the same ggml-cpu library as the CPU build's).
await loadLlama("vulkan");
