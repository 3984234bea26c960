// Our own CPU kernel for the trainer's f32 matrix products, run as ggml custom operations.
// ggml_build_backward_expand takes both gradients of every product as out_prod — the weight's,
// out_prod(x, dy), and the input's, out_prod(W, dyᵀ) — and ggml CPU's out_prod is a loop of vector
// multiply-adds over one row of the result at a time: ~70% of a medium full-weight step, the
// forward's tinyBLAS products most of the rest (~38 GFLOP/s on one core). The kernel (an AVX-512
// out-product with a 64 × 6 register tile) computes the backward's out_prods as they are and the
// forward's f32 products on a transposed copy of the matrix. Header-only (included by ggml-policy.cpp:
// the build lists its sources elsewhere).
#pragma once

#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "../ggml-library.h"
#include "ggml-forward-graph.h"

namespace ggml_out_product {

/**
 * Makes `node` compute by `kernel`: a GGML_OP_CUSTOM node made by `custom` (ggml's CPU backend runs custom operations
 * on its own threads, each call with all of them), whose op and parameters (the kernel, its task count, `userdata`)
 * are copied onto `node`, which keeps its operands, shape and readers.
 */
inline void computeByKernel(decltype(&ggml_custom_4d) custom, ggml_context* context, ggml_tensor* node, ggml_custom_op_t kernel, void* userdata) {
  ggml_tensor* pattern = custom(context, GGML_TYPE_F32, 1, 1, 1, 1, nullptr, 0, kernel, GGML_N_TASKS_MAX, userdata);
  node->op = pattern->op;
  std::memcpy(node->op_params, pattern->op_params, sizeof(node->op_params));
}

// GCC 12 warns of the undefined vectors inside its own AVX-512 intrinsics (-Wmaybe-uninitialized): not ours.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#if defined(__x86_64__)

/** Rows of a (the result's first dimension) per tile: four AVX-512 vectors. */
constexpr int64_t TILE_ROWS = 64;
/** Columns of the result per tile: 4 × 6 accumulators leave registers for the operands. */
constexpr int COLUMNS = 6;
/** Steps of the summed dimension per pass over a tile: 64 rows × 128 steps of a (32 KiB) stay in L1. */
constexpr int64_t DEPTH = 128;
/** Result columns per job (the unit threads share): a multiple of COLUMNS. */
constexpr int64_t JOB_COLUMNS = 48;

/**
 * result[i, c] (+)= Σ_{k ∈ [k0, k1)} a[i, k] · b[c, k] for a tile of `Vectors` × 16 rows (the last
 * vector masked by `lastMask`) and `Columns` columns. Each sum runs over k in order with one fused
 * multiply-add a step, as ggml's out_prod does. Strides in floats (a, result) and bytes (b: any layout).
 */
template <int Vectors, int Columns>
__attribute__((target("avx512f"))) void tile(const float* a, int64_t aStep, const char* b, size_t bColumn, size_t bStep, float* result,
                                             int64_t resultColumn, int64_t k0, int64_t k1, bool first, __mmask16 lastMask) {
  __m512 sums[Vectors][Columns];
#pragma GCC unroll 8
  for (int column = 0; column < Columns; column++) {
#pragma GCC unroll 4
    for (int vector = 0; vector < Vectors; vector++) {
      const float* at = result + column * resultColumn + vector * 16;
      sums[vector][column] = first ? _mm512_setzero_ps() : (vector == Vectors - 1 ? _mm512_maskz_loadu_ps(lastMask, at) : _mm512_loadu_ps(at));
    }
  }
  for (int64_t k = k0; k < k1; k++) {
    const float* ak = a + k * aStep;
    __m512 values[Vectors];
#pragma GCC unroll 4
    for (int vector = 0; vector < Vectors; vector++) {
      values[vector] = vector == Vectors - 1 ? _mm512_maskz_loadu_ps(lastMask, ak + vector * 16) : _mm512_loadu_ps(ak + vector * 16);
    }
    const char* bk = b + static_cast<size_t>(k) * bStep;
#pragma GCC unroll 8
    for (int column = 0; column < Columns; column++) {
      float scalar;
      std::memcpy(&scalar, bk + column * bColumn, sizeof(float));
      const __m512 broadcast = _mm512_set1_ps(scalar);
#pragma GCC unroll 4
      for (int vector = 0; vector < Vectors; vector++) sums[vector][column] = _mm512_fmadd_ps(values[vector], broadcast, sums[vector][column]);
    }
  }
#pragma GCC unroll 8
  for (int column = 0; column < Columns; column++) {
#pragma GCC unroll 4
    for (int vector = 0; vector < Vectors; vector++) {
      float* at = result + column * resultColumn + vector * 16;
      if (vector == Vectors - 1) {
        _mm512_mask_storeu_ps(at, lastMask, sums[vector][column]);
      } else {
        _mm512_storeu_ps(at, sums[vector][column]);
      }
    }
  }
}

using TileFunction = void (*)(const float*, int64_t, const char*, size_t, size_t, float*, int64_t, int64_t, int64_t, bool, __mmask16);

template <int Vectors>
constexpr TileFunction tileFor(int columns) {
  switch (columns) {
    case 1: return tile<Vectors, 1>;
    case 2: return tile<Vectors, 2>;
    case 3: return tile<Vectors, 3>;
    case 4: return tile<Vectors, 4>;
    case 5: return tile<Vectors, 5>;
    default: return tile<Vectors, 6>;
  }
}

inline TileFunction tileFor(int vectors, int columns) {
  switch (vectors) {
    case 1: return tileFor<1>(columns);
    case 2: return tileFor<2>(columns);
    case 3: return tileFor<3>(columns);
    default: return tileFor<4>(columns);
  }
}

/**
 * What the kernel may skip of a causal attention product (plain layout: a query row sees no key after
 * it, so the softmax's output and its gradient are exactly 0 there): terms that are exact zeros, whose
 * omission changes no sum, or results that nothing reads but through a zero. Passed as userdata.
 */
enum class Causal : int {
  none,
  /** result[i, j] for i > j is never used (masked scores; the scores' gradient before softmax_back): 0. */
  zeroBelow,
  /** b[·, k] or a[i, ·] is 0 for k < i: the sum starts at the tile's first row. */
  fromRow,
  /** the operands are 0 for k < j: the sum starts at the tile's first column. */
  fromColumn,
  /** the operands are 0 for k > j: the sum ends at the tile's last column. */
  toColumn,
};

inline constexpr Causal CAUSAL_MODES[] = {Causal::none, Causal::zeroBelow, Causal::fromRow, Causal::fromColumn, Causal::toColumn};

inline void* causalUserdata(Causal mode) { return const_cast<Causal*>(&CAUSAL_MODES[static_cast<int>(mode)]); }

/**
 * ggml_custom_op_t: dst = out_prod(src[0], src[1]) — dst[i, j, i2, i3] = Σ_k a[i, k, i2 / (ne2 / a.ne2),
 * i3 / (ne3 / a.ne3)] · b[j, k, i2, i3] — over jobs of 64 rows × 48 columns shared among the threads;
 * `userdata` points to a Causal mode (null: none).
 */
inline void compute(ggml_tensor* dst, int ith, int nth, void* userdata) {
  const Causal mode = userdata == nullptr ? Causal::none : *static_cast<const Causal*>(userdata);
  const ggml_tensor* a = dst->src[0];
  const ggml_tensor* b = dst->src[1];
  const int64_t rows = dst->ne[0];
  const int64_t columns = dst->ne[1];
  const int64_t depth = a->ne[1];
  const int64_t rowTiles = (rows + TILE_ROWS - 1) / TILE_ROWS;
  const int64_t columnJobs = (columns + JOB_COLUMNS - 1) / JOB_COLUMNS;
  const int64_t batches = dst->ne[2] * dst->ne[3];
  const int64_t jobs = batches * rowTiles * columnJobs;
  const int64_t aStep = static_cast<int64_t>(a->nb[1] / sizeof(float));
  const int64_t resultColumn = static_cast<int64_t>(dst->nb[1] / sizeof(float));
  for (int64_t job = ith; job < jobs; job += nth) {
    const int64_t columnJob = job % columnJobs;
    const int64_t rowTile = job / columnJobs % rowTiles;
    const int64_t batch = job / columnJobs / rowTiles;
    const int64_t i2 = batch % dst->ne[2];
    const int64_t i3 = batch / dst->ne[2];
    const int64_t row = rowTile * TILE_ROWS;
    const int64_t tileRows = std::min(TILE_ROWS, rows - row);
    const int vectors = static_cast<int>((tileRows + 15) / 16);
    const int64_t lastRows = tileRows - 16 * (vectors - 1);
    const auto lastMask = static_cast<__mmask16>(lastRows == 16 ? 0xFFFF : (1u << lastRows) - 1);
    const float* aTile = reinterpret_cast<const float*>(static_cast<const char*>(a->data) + (i2 / (dst->ne[2] / a->ne[2])) * a->nb[2] +
                                                        (i3 / (dst->ne[3] / a->ne[3])) * a->nb[3]) + row;
    const char* bBatch = static_cast<const char*>(b->data) + i2 * b->nb[2] + i3 * b->nb[3];
    float* resultTile = reinterpret_cast<float*>(static_cast<char*>(dst->data) + i2 * dst->nb[2] + i3 * dst->nb[3]) + row;
    const int64_t firstColumn = columnJob * JOB_COLUMNS;
    const int64_t endColumn = std::min(columns, firstColumn + JOB_COLUMNS);
    for (int64_t k0 = 0; k0 < depth; k0 += DEPTH) {
      const int64_t k1 = std::min(depth, k0 + DEPTH);
      for (int64_t column = firstColumn; column < endColumn; column += COLUMNS) {
        const int count = static_cast<int>(std::min<int64_t>(COLUMNS, endColumn - column));
        // The tile's sum runs over [low, high); an empty one is written as zeros (a tile call with no steps).
        int64_t low = 0;
        int64_t high = depth;
        if (mode == Causal::zeroBelow && row > column + count - 1) high = 0;
        if (mode == Causal::fromRow) low = row;
        if (mode == Causal::fromColumn) low = column;
        if (mode == Causal::toColumn) high = std::min(depth, column + count);
        const int64_t start = std::max(k0, low);
        const int64_t end = std::min(k1, high);
        if (start >= end && !(k0 == 0 && low >= high)) continue;
        tileFor(vectors, count)(aTile, aStep, bBatch + column * b->nb[0], b->nb[0], b->nb[1], resultTile + column * resultColumn, resultColumn, start,
                                std::max(start, end), start == low || low >= high, lastMask);
      }
    }
  }
}

/** Rows and columns of a block the transpose kernel copies at a time (4 KiB of the source). */
constexpr int64_t TRANSPOSE_BLOCK = 32;

/** ggml_custom_op_t: dst[j, i, i2, i3] = src[0][i, j, i2, i3], dst contiguous, in blocks shared among the threads. */
inline void transposeCompute(ggml_tensor* dst, int ith, int nth, void*) {
  const ggml_tensor* source = dst->src[0];
  const int64_t rows = source->ne[0];
  const int64_t columns = source->ne[1];
  const int64_t rowBlocks = (rows + TRANSPOSE_BLOCK - 1) / TRANSPOSE_BLOCK;
  const int64_t columnBlocks = (columns + TRANSPOSE_BLOCK - 1) / TRANSPOSE_BLOCK;
  const int64_t jobs = rowBlocks * columnBlocks * source->ne[2] * source->ne[3];
  for (int64_t job = ith; job < jobs; job += nth) {
    const int64_t columnBlock = job % columnBlocks;
    const int64_t rowBlock = job / columnBlocks % rowBlocks;
    const int64_t batch = job / columnBlocks / rowBlocks;
    const int64_t i2 = batch % source->ne[2];
    const int64_t i3 = batch / source->ne[2];
    const char* from = static_cast<const char*>(source->data) + i2 * source->nb[2] + i3 * source->nb[3];
    char* to = static_cast<char*>(dst->data) + i2 * dst->nb[2] + i3 * dst->nb[3];
    const int64_t rowEnd = std::min(rows, (rowBlock + 1) * TRANSPOSE_BLOCK);
    const int64_t columnEnd = std::min(columns, (columnBlock + 1) * TRANSPOSE_BLOCK);
    for (int64_t row = rowBlock * TRANSPOSE_BLOCK; row < rowEnd; row++) {
      float* out = reinterpret_cast<float*>(to + row * dst->nb[1]);
      for (int64_t column = columnBlock * TRANSPOSE_BLOCK; column < columnEnd; column++) {
        std::memcpy(out + column, from + row * source->nb[0] + column * source->nb[1], sizeof(float));
      }
    }
  }
}

#endif
#pragma GCC diagnostic pop

/**
 * ggml_custom_4d of the bound ggml, through which a graph runs our kernels on ggml CPU's threads, or null where
 * that ggml has none. The graph builders take what the policy decided (GgmlPolicy), never this directly.
 */
inline decltype(&ggml_custom_4d) boundCustomOperation(const GgmlLibrary& ggml) {
  static std::once_flag once;
  static decltype(&ggml_custom_4d) resolved = nullptr;
  std::call_once(once, [&ggml]() {
    void* handle = dlopen(ggml.path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (handle != nullptr) resolved = reinterpret_cast<decltype(&ggml_custom_4d)>(dlsym(handle, "ggml_custom_4d"));
  });
  return resolved;
}

/** boundCustomOperation where this CPU runs the AVX-512 kernels, else null. */
inline decltype(&ggml_custom_4d) customOperation(const GgmlLibrary& ggml) {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx512f") ? boundCustomOperation(ggml) : nullptr;
#else
  (void)ggml;
  return nullptr;
#endif
}

/** Whether `node` is an f32 out_prod the kernel computes (a's rows contiguous, the result contiguous). */
inline bool handles(const ggml_tensor* node) {
  if (node->op != GGML_OP_OUT_PROD) return false;
  const ggml_tensor* a = node->src[0];
  const ggml_tensor* b = node->src[1];
  if (node->type != GGML_TYPE_F32 || a->type != GGML_TYPE_F32 || b->type != GGML_TYPE_F32) return false;
  if (a->nb[0] != sizeof(float) || a->nb[1] % sizeof(float) != 0 || node->nb[0] != sizeof(float) || node->nb[1] % sizeof(float) != 0) return false;
  return node->ne[2] % a->ne[2] == 0 && node->ne[3] % a->ne[3] == 0 && a->ne[1] == b->ne[1];
}

}  // namespace ggml_out_product

/**
 * Makes every f32 OUT_PROD among `graph`'s nodes [begin, end) compute by ggml_out_product::compute (a
 * GGML_OP_CUSTOM on the same operands, same shape, made by `custom`: ggml's CPU backend runs custom
 * operations on its own threads). Returns false, changing nothing, when `custom` is null (the kernels
 * cannot or must not run: see GgmlPolicy::customOperation). Each sum runs in ggml's order, so the
 * gradients are ggml's own: the medium step's gradient norm came out bit for bit the same.
 */
inline bool useOutProductKernel(const GgmlLibrary& ggml, decltype(&ggml_custom_4d) custom, ggml_context* context, ggml_cgraph* graph, int begin, int end) {
#if defined(__x86_64__)
  using ggml_out_product::Causal;
  if (custom == nullptr) return false;
  // The plain layout's causal attention (ggml-forward-graph.h): its softmax outputs (probabilities), the value
  // matrices they weigh, and the softmax gradients (scores' gradients) — all exactly 0 past the diagonal.
  std::set<const ggml_tensor*> probabilities, values, scoreGradients;
  for (int index = 0; index < end; index++) {
    const ggml_tensor* node = ggml.ggml_graph_node(graph, index);
    if (node->op == GGML_OP_SOFT_MAX && std::strcmp(node->src[0]->name, GGML_CAUSAL_SCORES_NAME) == 0) probabilities.insert(node);
    if (node->op == GGML_OP_MUL_MAT && std::strcmp(node->name, GGML_CAUSAL_VALUES_NAME) == 0) values.insert(node->src[0]);
    if (node->op == GGML_OP_SOFT_MAX_BACK && probabilities.count(node->src[1]) > 0) scoreGradients.insert(node);
  }
  auto transposeOf = [](const ggml_tensor* node, const std::set<const ggml_tensor*>& set) { return node->op == GGML_OP_TRANSPOSE && set.count(node->src[0]) > 0; };
  for (int index = begin; index < end; index++) {
    ggml_tensor* node = ggml.ggml_graph_node(graph, index);
    if (!ggml_out_product::handles(node)) continue;
    // ggml's backward of mul_mat(x, y) = z: out_prod(y, dz) for x, out_prod(x, dzᵀ) for y.
    Causal mode = Causal::none;
    if (probabilities.count(node->src[0]) > 0) mode = Causal::fromRow;                  // values' gradient: Σ over queries from the key's row
    if (values.count(node->src[0]) > 0 && node->src[1]->op == GGML_OP_TRANSPOSE) mode = Causal::zeroBelow;  // softmax's gradient
    if (scoreGradients.count(node->src[1]) > 0) mode = Causal::fromColumn;             // keys' gradient: Σ over queries from the key
    if (transposeOf(node->src[1], scoreGradients)) mode = Causal::toColumn;            // queries' gradient: Σ over keys up to the query
    ggml_out_product::computeByKernel(custom, context, node, ggml_out_product::compute, ggml_out_product::causalUserdata(mode));
  }
  return true;
#else
  (void)ggml, (void)custom, (void)context, (void)graph, (void)begin, (void)end;
  return false;
#endif
}

namespace ggml_out_product {

inline bool contiguousF32(const ggml_tensor* tensor) {
  if (tensor->type != GGML_TYPE_F32 || tensor->nb[0] != sizeof(float)) return false;
  for (int dimension = 1; dimension < GGML_MAX_DIMS; dimension++) {
    if (tensor->nb[dimension] != tensor->nb[dimension - 1] * static_cast<size_t>(tensor->ne[dimension - 1])) return false;
  }
  return true;
}

/**
 * Where the kernel cannot run: `graph` with every f32 OUT_PROD of its backward pass (nodes from
 * `begin`) turned into the MUL_MAT of its operands' transposes, in the same order otherwise (medium,
 * 1 thread: 959 → 1,150 tokens/s; the kernel ~2,000). out_prod(a, b)[i, j] = Σₖ a[i, k]·b[j, k] is
 * mul_mat(aᵀ, bᵀ) with aᵀ, bᵀ contiguous copies (an operand that is itself a transposed view of a
 * contiguous tensor is read as that tensor, no copy; a copy serves every product that reads it), with
 * the same broadcast over dimensions 2 and 3; the sums only change order. Frozen matrices (a LoRA's
 * base) keep their out_prod — a transposed copy of each would add its size to the compute buffer —
 * unless `frozenTransposes` holds one made at load time (GgmlPolicyWeights::transposedCopies, off the CPU).
 */
inline ggml_cgraph* backwardProductsAsMulMat(const GgmlLibrary& ggml, ggml_context* context, ggml_cgraph* graph, int begin, size_t graphSize,
                                             const std::map<const ggml_tensor*, ggml_tensor*>& frozenTransposes) {
  const int count = ggml.ggml_graph_n_nodes(graph);
  std::map<ggml_tensor*, ggml_tensor*> transposes;
  std::set<const ggml_tensor*> orphans;
  auto transposed = [&](ggml_tensor* operand) -> ggml_tensor* {
    const auto frozen = frozenTransposes.find(operand);
    if (frozen != frozenTransposes.end()) return frozen->second;
    if (operand->op == GGML_OP_TRANSPOSE && contiguousF32(operand->src[0])) {
      orphans.insert(operand);
      return operand->src[0];
    }
    const auto found = transposes.find(operand);
    if (found != transposes.end()) return found->second;
    ggml_tensor* copy = ggml.ggml_cont(context, ggml.ggml_permute(context, operand, 1, 0, 2, 3));
    transposes.emplace(operand, copy);
    return copy;
  };
  auto copyable = [&](const ggml_tensor* operand) {
    if (frozenTransposes.count(operand) > 0) return true;
    const bool frozenLeaf = operand->op == GGML_OP_NONE && (operand->flags & GGML_TENSOR_FLAG_PARAM) == 0;
    return operand->type == GGML_TYPE_F32 && !frozenLeaf;
  };
  bool changed = false;
  for (int index = begin; index < count; index++) {
    ggml_tensor* node = ggml.ggml_graph_node(graph, index);
    if (node->op != GGML_OP_OUT_PROD || node->type != GGML_TYPE_F32 || !copyable(node->src[0]) || !copyable(node->src[1])) continue;
    ggml_tensor* a = transposed(node->src[0]);
    ggml_tensor* b = transposed(node->src[1]);
    node->op = GGML_OP_MUL_MAT;
    node->src[0] = a;
    node->src[1] = b;
    changed = true;
  }
  if (!changed) return graph;
  // A transposed view that only an out_prod read is read by none now: left out, it would hold its source's memory.
  for (int index = begin; index < count; index++) {
    ggml_tensor* node = ggml.ggml_graph_node(graph, index);
    for (ggml_tensor* source : node->src) orphans.erase(source);
  }
  // The same nodes in the same order, each new copy just before its first reader (expanding a node adds its
  // unvisited parents first); the leaves are collected again.
  ggml_cgraph* rewritten = ggml.ggml_new_graph_custom(context, graphSize, false);
  for (int index = 0; index < count; index++) {
    ggml_tensor* node = ggml.ggml_graph_node(graph, index);
    if (orphans.count(node) == 0) ggml.ggml_build_forward_expand(rewritten, node);
  }
  // The forward pass is computed as the first `begin` nodes: they must not have moved.
  for (int index = 0; index < begin; index++) {
    if (ggml.ggml_graph_node(rewritten, index) != ggml.ggml_graph_node(graph, index)) throw std::logic_error("the backward products' rewrite moved a forward node");
  }
  return rewritten;
}

}  // namespace ggml_out_product

/**
 * The graph to compute: its backward pass's f32 out_prods (nodes from `begin`) computed by our kernel
 * through `custom` (the same graph), else, `custom` null, as ggml's mul_mat of transposed copies (a new
 * graph of the same nodes, the copies among them; `frozenTransposes` for frozen matrices). The forward
 * nodes stay the first `begin`, unchanged.
 */
inline ggml_cgraph* fastBackwardProducts(const GgmlLibrary& ggml, decltype(&ggml_custom_4d) custom, ggml_context* context, ggml_cgraph* graph, int begin,
                                         size_t graphSize, const std::map<const ggml_tensor*, ggml_tensor*>& frozenTransposes) {
  if (useOutProductKernel(ggml, custom, context, graph, begin, ggml.ggml_graph_n_nodes(graph))) return graph;
  return ggml_out_product::backwardProductsAsMulMat(ggml, context, graph, begin, graphSize, frozenTransposes);
}

/**
 * The forward products of f32 matrices by the same kernel: mul_mat(A, B)[m, n] = Σₖ A[k, m]·B[k, n] is
 * the out-product of Aᵀ (a contiguous copy, made by transposeCompute in the graph: the weights change
 * every step) and a transposed view of B, at about 2.5× tinyBLAS's speed on the medium model (f32 sums in
 * another order: logprobs move by f32 rounding). Products whose A is not f32 (quantised, f16/bf16 — the
 * engine's arithmetic), is small in its second dimension (LoRA factors), or is larger than
 * FORWARD_COPY_LIMIT elements (a large output matrix: its copy would live in the compute buffer) stay
 * ggml's, as every product does when `custom` is null. `forwardNodes` is updated to the count of
 * forward nodes in the returned graph.
 */
inline constexpr int64_t FORWARD_COPY_LIMIT = int64_t{1} << 24;

inline ggml_cgraph* forwardProductsByKernel(const GgmlLibrary& ggml, decltype(&ggml_custom_4d) custom, ggml_context* context, ggml_cgraph* graph,
                                            int& forwardNodes, size_t graphSize) {
#if defined(__x86_64__)
  if (custom == nullptr) return graph;
  bool changed = false;
  for (int index = 0; index < forwardNodes; index++) {
    ggml_tensor* node = ggml.ggml_graph_node(graph, index);
    if (node->op != GGML_OP_MUL_MAT || node->type != GGML_TYPE_F32) continue;
    ggml_tensor* a = node->src[0];
    ggml_tensor* b = node->src[1];
    if (a->type != GGML_TYPE_F32 || b->type != GGML_TYPE_F32 || a->nb[0] != sizeof(float) || b->nb[0] != sizeof(float)) continue;
    if (a->ne[1] < 64 || b->ne[1] < 16 || a->ne[0] < 16 || a->ne[3] != 1 || b->ne[3] != 1 || ggml.ggml_nelements(a) > FORWARD_COPY_LIMIT) continue;
    ggml_tensor* transposed = custom(context, GGML_TYPE_F32, a->ne[1], a->ne[0], a->ne[2], a->ne[3], &a, 1, ggml_out_product::transposeCompute, GGML_N_TASKS_MAX, nullptr);
    // Causal attention (ggml-forward-graph.h): masked scores need no value; the values' sums end at the query.
    ggml_out_product::Causal mode = ggml_out_product::Causal::none;
    if (std::strcmp(node->name, GGML_CAUSAL_SCORES_NAME) == 0) mode = ggml_out_product::Causal::zeroBelow;
    if (std::strcmp(node->name, GGML_CAUSAL_VALUES_NAME) == 0) mode = ggml_out_product::Causal::toColumn;
    ggml_out_product::computeByKernel(custom, context, node, ggml_out_product::compute, ggml_out_product::causalUserdata(mode));
    node->src[0] = transposed;
    node->src[1] = ggml.ggml_permute(context, b, 1, 0, 2, 3);
    changed = true;
  }
  if (!changed) return graph;
  // The same nodes in the same order, each transposed copy and view just before its product.
  ggml_cgraph* rewritten = ggml.ggml_new_graph_custom(context, graphSize, false);
  const int count = ggml.ggml_graph_n_nodes(graph);
  for (int index = 0; index < forwardNodes; index++) ggml.ggml_build_forward_expand(rewritten, ggml.ggml_graph_node(graph, index));
  const int rewrittenForward = ggml.ggml_graph_n_nodes(rewritten);
  for (int index = forwardNodes; index < count; index++) ggml.ggml_build_forward_expand(rewritten, ggml.ggml_graph_node(graph, index));
  if (ggml.ggml_graph_n_nodes(rewritten) - rewrittenForward != count - forwardNodes) throw std::logic_error("the forward products' rewrite changed the backward pass");
  forwardNodes = rewrittenForward;
  return rewritten;
#else
  (void)ggml, (void)custom, (void)context, (void)forwardNodes, (void)graphSize;
  return graph;
#endif
}
