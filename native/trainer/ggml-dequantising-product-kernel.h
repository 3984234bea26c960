// The backward of a product with a frozen quantised matrix, on the CPU. A LoRA over a quantised base
// needs, for every frozen matrix W of y = W·x, the input's gradient dx = out_prod(W, dyᵀ). ggml CPU's
// out_prod over a quantised W dequantises row k of W once for every row of dx it computes: at 512
// tokens it dequantised the whole model 512 times a step — two thirds of a Qwen2.5-0.5B-shaped LoRA
// step (perf: dequantize_row_q8_0 49%, out_prod 18%; 9 tokens/s). This kernel dequantises each panel
// of W once per thread and multiplies it with the AVX-512 out-product tile of ggml-product-kernels.h
// (one fused multiply-add a step, in ggml's order: the same gradients), or on a CPU without AVX-512
// with a portable tile (a multiply and an add a step). Header-only (included by ggml-policy.cpp: the
// build lists its sources elsewhere).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
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

/** Rows of W converted to f32 at a time (a panel: rows × PANEL_DEPTH floats per thread). */
constexpr int64_t PANEL_DEPTH = 128;
/** Rows of the result per tile (four AVX-512 vectors) and columns per tile: as ggml-product-kernels.h's tile. */
constexpr int64_t TILE_ROWS = 64;
constexpr int64_t TILE_COLUMNS = 6;

#if defined(__x86_64__) && defined(__GNUC__)
// One build for every x86 CPU, an AVX + FMA body where the CPU has FMA (chosen by feature when the addon loads).
#define SELFPLAY_PORTABLE_TILE_CLONES __attribute__((target_clones("fma", "default")))
#else
#define SELFPLAY_PORTABLE_TILE_CLONES
#endif

/** Rows of the portable tile's register block: with TILE_COLUMNS columns, 12 AVX2 accumulators. */
constexpr int64_t PORTABLE_BLOCK_ROWS = 16;

/**
 * The portable tile, for CPUs without AVX-512: result[r, c] (+)= Σ_{k < steps} a[r, k] · b[c, k] for TILE_ROWS rows
 * (those past `rows` computed from whatever follows in the panel and never stored) and `columns` ≤ TILE_COLUMNS
 * columns (missing ones computed from the last and never stored), PORTABLE_BLOCK_ROWS rows at a time so that the
 * sums stay in registers. Each sum runs over k in order, a multiply and an add a step (fused where the compiler
 * may: the sums then differ from ggml's by rounding only).
 */
SELFPLAY_PORTABLE_TILE_CLONES inline void portableTile(const float* a, int64_t aStep, const char* b, size_t bColumn, size_t bStep, float* result,
                                                      int64_t resultColumn, int64_t rows, int columns, int64_t steps, bool first) {
  for (int64_t block = 0; block < rows; block += PORTABLE_BLOCK_ROWS) {
    float sums[TILE_COLUMNS][PORTABLE_BLOCK_ROWS];
    for (int column = 0; column < TILE_COLUMNS; column++) {
      for (int64_t row = 0; row < PORTABLE_BLOCK_ROWS; row++) {
        const bool stored = column < columns && block + row < rows;
        sums[column][row] = first || !stored ? 0.0f : result[column * resultColumn + block + row];
      }
    }
    for (int64_t k = 0; k < steps; k++) {
      const float* ak = a + k * aStep + block;
      const char* bk = b + static_cast<size_t>(k) * bStep;
      // Unrolled whole, so that the sums stay in registers (at -O2 GCC unrolls no loop of its own).
#pragma GCC unroll 6
      for (int column = 0; column < TILE_COLUMNS; column++) {
        float scalar;
        std::memcpy(&scalar, bk + std::min(column, columns - 1) * bColumn, sizeof(float));
#pragma GCC unroll 16
        for (int64_t row = 0; row < PORTABLE_BLOCK_ROWS; row++) sums[column][row] += ak[row] * scalar;
      }
    }
    for (int column = 0; column < columns; column++) {
      for (int64_t row = 0; row < PORTABLE_BLOCK_ROWS && block + row < rows; row++) result[column * resultColumn + block + row] = sums[column][row];
    }
  }
}

/** Which tile multiplies the panels: ggml-product-kernels.h's AVX-512 one, or portableTile. */
enum class Tile { avx512, portable };

/**
 * dst[i, j] = Σ_k W[i, k] · b[j, k] for a 2-D W of any type `converter` reads (rows along i), b f32 in any layout,
 * dst f32 with contiguous columns. Threads share dst's columns; each converts PANEL_DEPTH rows of W at a time into a
 * panel of its own and runs the tiles over its columns. Converting W once per thread costs rows × depth conversions
 * against rows × depth × columns / threads multiply-adds.
 */
template <Tile kind>
void computeByTile(ggml_tensor* dst, int ith, int nth, const RowConverter* converter) {
  const ggml_tensor* w = dst->src[0];
  const ggml_tensor* b = dst->src[1];
  const int64_t rows = dst->ne[0];
  const int64_t columns = dst->ne[1];
  const int64_t depth = w->ne[1];
  const int64_t groups = (columns + TILE_COLUMNS - 1) / TILE_COLUMNS;
  const int64_t firstGroup = groups * ith / nth;
  const int64_t endGroup = groups * (ith + 1) / nth;
  if (firstGroup >= endGroup) return;
  const int64_t firstColumn = firstGroup * TILE_COLUMNS;
  const int64_t endColumn = std::min(columns, endGroup * TILE_COLUMNS);
  const int64_t resultColumn = static_cast<int64_t>(dst->nb[1] / sizeof(float));
  thread_local std::vector<float> panel;
  // TILE_ROWS floats past the last row: the portable tile reads whole blocks (what it reads there is never stored).
  panel.resize(static_cast<size_t>(rows * PANEL_DEPTH + TILE_ROWS));
  for (int64_t k0 = 0; k0 < depth; k0 += PANEL_DEPTH) {
    const int64_t steps = std::min(PANEL_DEPTH, depth - k0);
    for (int64_t k = 0; k < steps; k++) {
      converter->toFloat(static_cast<const char*>(w->data) + (k0 + k) * w->nb[1], panel.data() + k * rows, rows);
    }
    const char* bChunk = static_cast<const char*>(b->data) + static_cast<size_t>(k0) * b->nb[1];
    for (int64_t row = 0; row < rows; row += TILE_ROWS) {
      const int64_t tileRows = std::min(TILE_ROWS, rows - row);
      float* resultTile = static_cast<float*>(dst->data) + row;
      for (int64_t column = firstColumn; column < endColumn; column += TILE_COLUMNS) {
        const int count = static_cast<int>(std::min<int64_t>(TILE_COLUMNS, endColumn - column));
        const char* bTile = bChunk + column * b->nb[0];
        if constexpr (kind == Tile::portable) {
          portableTile(panel.data() + row, rows, bTile, b->nb[0], b->nb[1], resultTile + column * resultColumn, resultColumn, tileRows, count, steps, k0 == 0);
        } else {
#if defined(__x86_64__)
          const int vectors = static_cast<int>((tileRows + 15) / 16);
          const int64_t lastRows = tileRows - 16 * (vectors - 1);
          const auto lastMask = static_cast<__mmask16>(lastRows == 16 ? 0xFFFF : (1u << lastRows) - 1);
          ggml_out_product::tileFor(vectors, count)(panel.data() + row, rows, bTile, b->nb[0], b->nb[1], resultTile + column * resultColumn, resultColumn, 0,
                                                    steps, k0 == 0, lastMask);
#endif
        }
      }
    }
  }
}

/** ggml_custom_op_t over computeByTile with the portable tile; `userdata` is the RowConverter. */
inline void computePortable(ggml_tensor* dst, int ith, int nth, void* userdata) {
  computeByTile<Tile::portable>(dst, ith, nth, static_cast<const RowConverter*>(userdata));
}

#if defined(__x86_64__)
/** ggml_custom_op_t over computeByTile with the AVX-512 tile; `userdata` is the RowConverter. */
inline void computeAvx512(ggml_tensor* dst, int ith, int nth, void* userdata) {
  computeByTile<Tile::avx512>(dst, ith, nth, static_cast<const RowConverter*>(userdata));
}
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
 * ggml_dequantising_product's kernel, through `custom` (ggml_custom_4d), with the AVX-512 tile when `avx512` (the
 * policy's AVX-512 kernels are on) and the portable one otherwise. Returns false, changing nothing, when `custom` is
 * null (the graph does not run on ggml's CPU backend, or the caller asked for ggml's own operations).
 */
inline bool useDequantisingProductKernel(const GgmlLibrary& ggml, decltype(&ggml_custom_4d) custom, bool avx512, ggml_context* context, ggml_cgraph* graph,
                                         int begin, int end) {
  if (custom == nullptr) return false;
  ggml_custom_op_t kernel = ggml_dequantising_product::computePortable;
#if defined(__x86_64__)
  if (avx512) kernel = ggml_dequantising_product::computeAvx512;
#else
  (void)avx512;
#endif
  for (int index = begin; index < end; index++) {
    ggml_tensor* node = ggml.ggml_graph_node(graph, index);
    if (!ggml_dequantising_product::handles(ggml, node)) continue;
    const ggml_dequantising_product::RowConverter* converter = ggml_dequantising_product::rowConverter(ggml, node->src[0]->type);
    if (converter == nullptr) continue;
    ggml_out_product::computeByKernel(custom, context, node, kernel, const_cast<ggml_dequantising_product::RowConverter*>(converter));
  }
  return true;
}
