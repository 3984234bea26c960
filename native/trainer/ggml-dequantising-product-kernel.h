// The backward of a product with a frozen quantised (or f16/bf16) matrix, on the CPU. A LoRA over a
// quantised base needs, for every frozen matrix W of y = W·x, the input's gradient dx = out_prod(W, dyᵀ).
// ggml CPU's out_prod over a quantised W dequantises row k of W once for every row of dx it computes:
// at 512 tokens it dequantised the whole model 512 times a step — two thirds of a Qwen2.5-0.5B-shaped
// LoRA step (perf: dequantize_row_q8_0 49%, out_prod 18%; 9 tokens/s). This kernel dequantises each
// panel of W once per thread and multiplies it with the out-product tile of ggml-product-kernels.h,
// summing over k in ggml's order with one fused multiply-add a step: the same values, the same gradients.
// Header-only (included by ggml-policy.cpp: the build lists its sources elsewhere).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "../ggml-library.h"
#include "ggml-product-kernels.h"

namespace ggml_dequantising_product {

/** How a matrix type becomes f32 rows: ggml's own converter, passed to the kernel as its userdata. */
struct RowConverter {
  ggml_to_float_t toFloat;
};

/** A converter per type, at an address that lives as long as the process (graphs keep pointers to it). */
inline const RowConverter* rowConverter(const GgmlLibrary& ggml, ggml_type type) {
  static std::mutex mutex;
  static std::map<ggml_type, RowConverter> converters;
  std::lock_guard<std::mutex> lock(mutex);
  const auto found = converters.find(type);
  if (found != converters.end()) return &found->second;
  const ggml_type_traits* traits = ggml.ggml_get_type_traits(type);
  if (traits == nullptr || traits->to_float == nullptr) return nullptr;
  return &converters.emplace(type, RowConverter{traits->to_float}).first->second;
}

#if defined(__x86_64__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

using ggml_out_product::COLUMNS;
using ggml_out_product::DEPTH;
using ggml_out_product::TILE_ROWS;

/**
 * ggml_custom_op_t: dst[i, j] = Σ_k W[i, k] · b[j, k] for a 2-D W of any type `userdata`'s converter reads
 * (rows along i), b f32 in any layout, dst f32 with contiguous columns. Threads share dst's columns; each
 * dequantises DEPTH rows of W at a time into a panel of its own and runs the tiles over its columns.
 * Converting W once per thread costs rows × depth conversions against rows × depth × columns / threads
 * multiply-adds.
 */
inline void compute(ggml_tensor* dst, int ith, int nth, void* userdata) {
  const auto* converter = static_cast<const RowConverter*>(userdata);
  const ggml_tensor* w = dst->src[0];
  const ggml_tensor* b = dst->src[1];
  const int64_t rows = dst->ne[0];
  const int64_t columns = dst->ne[1];
  const int64_t depth = w->ne[1];
  const int64_t groups = (columns + COLUMNS - 1) / COLUMNS;
  const int64_t firstGroup = groups * ith / nth;
  const int64_t endGroup = groups * (ith + 1) / nth;
  if (firstGroup >= endGroup) return;
  const int64_t firstColumn = firstGroup * COLUMNS;
  const int64_t endColumn = std::min(columns, endGroup * COLUMNS);
  const int64_t resultColumn = static_cast<int64_t>(dst->nb[1] / sizeof(float));
  thread_local std::vector<float> panel;
  panel.resize(static_cast<size_t>(rows * DEPTH));
  for (int64_t k0 = 0; k0 < depth; k0 += DEPTH) {
    const int64_t steps = std::min(DEPTH, depth - k0);
    for (int64_t k = 0; k < steps; k++) {
      converter->toFloat(static_cast<const char*>(w->data) + (k0 + k) * w->nb[1], panel.data() + k * rows, rows);
    }
    const char* bChunk = static_cast<const char*>(b->data) + static_cast<size_t>(k0) * b->nb[1];
    for (int64_t row = 0; row < rows; row += TILE_ROWS) {
      const int64_t tileRows = std::min(TILE_ROWS, rows - row);
      const int vectors = static_cast<int>((tileRows + 15) / 16);
      const int64_t lastRows = tileRows - 16 * (vectors - 1);
      const auto lastMask = static_cast<__mmask16>(lastRows == 16 ? 0xFFFF : (1u << lastRows) - 1);
      float* resultTile = static_cast<float*>(dst->data) + row;
      for (int64_t column = firstColumn; column < endColumn; column += COLUMNS) {
        const int count = static_cast<int>(std::min<int64_t>(COLUMNS, endColumn - column));
        ggml_out_product::tileFor(vectors, count)(panel.data() + row, rows, bChunk + column * b->nb[0], b->nb[0], b->nb[1],
                                                  resultTile + column * resultColumn, resultColumn, 0, steps, k0 == 0, lastMask);
      }
    }
  }
}

#pragma GCC diagnostic pop
#endif

/** Whether the kernel computes `node`: an out_prod of a 2-D non-f32 matrix with contiguous rows and f32 b, into a 2-D f32 result. */
inline bool handles(const GgmlLibrary& ggml, const ggml_tensor* node) {
  if (node->op != GGML_OP_OUT_PROD || node->type != GGML_TYPE_F32) return false;
  const ggml_tensor* w = node->src[0];
  const ggml_tensor* b = node->src[1];
  if (w->type == GGML_TYPE_F32 || b->type != GGML_TYPE_F32) return false;
  const ggml_type_traits* traits = ggml.ggml_get_type_traits(w->type);
  if (traits == nullptr || traits->to_float == nullptr || traits->blck_size_interleave != 0) return false;
  if (w->nb[0] != traits->type_size || w->ne[0] % traits->blck_size != 0 || w->ne[2] != 1 || w->ne[3] != 1) return false;
  return node->ne[2] == 1 && node->ne[3] == 1 && node->nb[0] == sizeof(float) && node->nb[1] % sizeof(float) == 0 && w->ne[1] == b->ne[1];
}

}  // namespace ggml_dequantising_product

/**
 * Makes every out_prod of a frozen non-f32 matrix among `graph`'s nodes [begin, end) compute by
 * ggml_dequantising_product::compute, through `custom` as useOutProductKernel does. Returns false,
 * changing nothing, when `custom` is null (the kernels cannot or must not run here).
 */
inline bool useDequantisingProductKernel(const GgmlLibrary& ggml, decltype(&ggml_custom_4d) custom, ggml_context* context, ggml_cgraph* graph, int begin,
                                         int end) {
#if defined(__x86_64__)
  if (custom == nullptr) return false;
  for (int index = begin; index < end; index++) {
    ggml_tensor* node = ggml.ggml_graph_node(graph, index);
    if (!ggml_dequantising_product::handles(ggml, node)) continue;
    const ggml_dequantising_product::RowConverter* converter = ggml_dequantising_product::rowConverter(ggml, node->src[0]->type);
    if (converter == nullptr) continue;
    ggml_out_product::computeByKernel(custom, context, node, ggml_dequantising_product::compute, const_cast<ggml_dequantising_product::RowConverter*>(converter));
  }
  return true;
#else
  (void)ggml, (void)custom, (void)context, (void)graph, (void)begin, (void)end;
  return false;
#endif
}
