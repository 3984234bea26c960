// Random-weight llama/qwen2 GGUF models and LoRA adapters, written with ggml's gguf API: the project's
// model maker (src/inference/model-files/create-random-model.ts) in C++, so the check makes its 0.5B
// and 1.5B files on the machine instead of carrying them.
#pragma once

#include <cstdint>
#include <string>

#include "ggml.h"

struct RandomModelShape {
  std::string name;
  std::string architecture;  // "llama" or "qwen2" (q/k/v biases, NEOX rope)
  int64_t vocabularySize;
  int64_t contextLength;
  int64_t embeddingLength;
  int64_t blockCount;
  int64_t feedForwardLength;
  int64_t headCount;
  int64_t headCountKv;
};

/** The presets of src/inference/model-files/model-presets.ts, plus "qwen2-1.5b" (Qwen2.5-1.5B's shape). */
RandomModelShape randomModelShape(const std::string& preset, const std::string& architecture);

/**
 * Writes the model: matrices ~ N(0, 0.02²) stored as `weightType` (f32, f16 or q8_0), norms 1, qwen2's
 * q/k/v biases ~ N(0, 0.02²) (the TypeScript maker writes zeros; random ones exercise the bias path),
 * tied output projection, the byte vocabulary padded with [PAD<id>] tokens. Returns the parameter count.
 */
int64_t writeRandomModel(const std::string& path, const RandomModelShape& shape, ggml_type weightType, uint64_t seed);

/** A rank-`rank` LoRA over every block projection (q, k, v, output, gate, up, down), both factors random. */
void writeRandomLora(const std::string& path, const RandomModelShape& shape, int64_t rank, float alpha, uint64_t seed);
