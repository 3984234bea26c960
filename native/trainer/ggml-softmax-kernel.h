// The causal attention's softmax (soft_max_ext with an f32 mask, no ALiBi, no sinks) as our own
// custom operation: ggml CPU's takes each row's maximum in a scalar loop and runs exp over every
// masked entry; ours takes the maximum in vectors and skips every 16-entry block the mask hides
// entirely. What it computes is ggml's, operation for operation (the same exp polynomial, the same
// per-block sums in double), so the probabilities are the same bit for bit: a hidden block's
// probabilities are exactly 0 in ggml's too, and add exactly 0 to the sum. Header-only (included
// by ggml-policy.cpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "ggml-product-kernels.h"

namespace ggml_softmax {

// GCC 12 warns of the undefined vectors inside its own AVX-512 intrinsics (-Wmaybe-uninitialized): not ours.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#if defined(__x86_64__)

/** ggml's AVX-512 expf (ggml-cpu/vec.h, ggml_v_expf), unchanged. */
__attribute__((target("avx512f,avx512dq"))) inline __m512 exponential(__m512 x) {
  const __m512 r = _mm512_set1_ps(0x1.8p23f);
  const __m512 z = _mm512_fmadd_ps(x, _mm512_set1_ps(0x1.715476p+0f), r);
  const __m512 n = _mm512_sub_ps(z, r);
  const __m512 b = _mm512_fnmadd_ps(n, _mm512_set1_ps(0x1.7f7d1cp-20f), _mm512_fnmadd_ps(n, _mm512_set1_ps(0x1.62e4p-1f), x));
  const __mmask16 d = _mm512_cmp_ps_mask(_mm512_abs_ps(n), _mm512_set1_ps(192), _CMP_GT_OQ);
  const __m512 u = _mm512_mul_ps(b, b);
  const __m512 j = _mm512_fmadd_ps(
      _mm512_fmadd_ps(_mm512_fmadd_ps(_mm512_set1_ps(0x1.0e4020p-7f), b, _mm512_set1_ps(0x1.573e2ep-5f)), u,
                      _mm512_fmadd_ps(_mm512_set1_ps(0x1.555e66p-3f), b, _mm512_set1_ps(0x1.fffdb6p-2f))),
      u, _mm512_fmadd_ps(_mm512_set1_ps(0x1.ffffecp-1f), b, _mm512_set1_ps(1.0F)));
  const __m512 res = _mm512_scalef_ps(j, n);
  if (_mm512_kortestz(d, d)) return res;
  const __m512 zero = _mm512_setzero_ps();
  const __m512 alt = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(n, zero, _CMP_LE_OQ), _mm512_set1_ps(INFINITY), zero);
  return _mm512_mask_blend_ps(d, res, alt);
}

/**
 * ggml_custom_op_t with src = {x [n, rows, heads], mask [n, ≥ rows] f32}: dst = softmax(x·scale + mask)
 * along dimension 0, rows shared among the threads as ggml does; `userdata` carries the scale's bits.
 */
__attribute__((target("avx512f,avx512dq"))) inline void compute(ggml_tensor* dst, int ith, int nth, void* userdata) {
  const ggml_tensor* source = dst->src[0];
  const ggml_tensor* mask = dst->src[1];
  const auto bits = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(userdata));
  float scale;
  std::memcpy(&scale, &bits, sizeof(float));
  const int64_t n = source->ne[0];
  std::vector<float> scaled(static_cast<size_t>(n));
  std::vector<char> hidden(static_cast<size_t>(n / 16 + 1));
  const __m512 negativeInfinity = _mm512_set1_ps(-INFINITY);
  for (int64_t i3 = 0; i3 < source->ne[3]; i3++) {
    for (int64_t i2 = 0; i2 < source->ne[2]; i2++) {
      for (int64_t row = ith; row < source->ne[1]; row += nth) {
        const float* x = reinterpret_cast<const float*>(static_cast<const char*>(source->data) + row * source->nb[1] + i2 * source->nb[2] + i3 * source->nb[3]);
        float* y = reinterpret_cast<float*>(static_cast<char*>(dst->data) + row * dst->nb[1] + i2 * dst->nb[2] + i3 * dst->nb[3]);
        const float* m = reinterpret_cast<const float*>(static_cast<const char*>(mask->data) + row * mask->nb[1] + (i2 % mask->ne[2]) * mask->nb[2] +
                                                        (i3 % mask->ne[3]) * mask->nb[3]);
        // ggml: wp = x·scale, wp += 1·mask (the ALiBi slope is 1), max over wp.
        float maximum = -INFINITY;
        int64_t i = 0;
        __m512 maxima = negativeInfinity;
        for (; i + 15 < n; i += 16) {
          const __m512 maskBlock = _mm512_loadu_ps(m + i);
          hidden[static_cast<size_t>(i / 16)] = _mm512_cmp_ps_mask(maskBlock, negativeInfinity, _CMP_NEQ_OQ) == 0;
          const __m512 value = _mm512_add_ps(_mm512_mul_ps(_mm512_loadu_ps(x + i), _mm512_set1_ps(scale)), maskBlock);
          _mm512_storeu_ps(scaled.data() + i, value);
          maxima = _mm512_max_ps(maxima, value);
        }
        maximum = _mm512_reduce_max_ps(maxima);
        for (int64_t tail = i; tail < n; tail++) {
          scaled[static_cast<size_t>(tail)] = x[tail] * scale + m[tail];
          maximum = std::fmax(maximum, scaled[static_cast<size_t>(tail)]);
        }
        // ggml_vec_soft_max_f32: exp(wp − max) in blocks of 16, each block's sum added in double; then the rest.
        double sum = 0;
        i = 0;
        for (; i + 15 < n; i += 16) {
          if (hidden[static_cast<size_t>(i / 16)]) {
            _mm512_storeu_ps(y + i, _mm512_setzero_ps());
            continue;
          }
          const __m512 value = exponential(_mm512_sub_ps(_mm512_loadu_ps(scaled.data() + i), _mm512_set1_ps(maximum)));
          _mm512_storeu_ps(y + i, value);
          sum += static_cast<double>(_mm512_reduce_add_ps(value));
        }
        for (; i < n; i++) {
          const float value = std::exp(scaled[static_cast<size_t>(i)] - maximum);
          sum += static_cast<double>(value);
          y[i] = value;
        }
        const float inverse = static_cast<float>(1.0 / sum);
        i = 0;
        for (; i + 15 < n; i += 16) _mm512_storeu_ps(y + i, _mm512_mul_ps(_mm512_loadu_ps(y + i), _mm512_set1_ps(inverse)));
        for (; i < n; i++) y[i] *= inverse;
      }
    }
  }
}

#endif
#pragma GCC diagnostic pop

}  // namespace ggml_softmax

/**
 * Makes the plain layout's attention softmax nodes among `graph`'s first `end` (soft_max_ext of the
 * scores named GGML_CAUSAL_SCORES_NAME, an f32 mask, max_bias 0, no sinks) compute by
 * ggml_softmax::compute through `custom` (null: they stay ggml's). Call after the backward pass is
 * built: SOFT_MAX_BACK reads their output.
 */
inline void useSoftmaxKernel(const GgmlLibrary& ggml, decltype(&ggml_custom_4d) custom, ggml_context* context, ggml_cgraph* graph, int end) {
#if defined(__x86_64__)
  if (custom == nullptr || !__builtin_cpu_supports("avx512dq")) return;
  for (int index = 0; index < end; index++) {
    ggml_tensor* node = ggml.ggml_graph_node(graph, index);
    if (node->op != GGML_OP_SOFT_MAX || std::strcmp(node->src[0]->name, GGML_CAUSAL_SCORES_NAME) != 0) continue;
    const ggml_tensor* mask = node->src[1];
    float scale = 0;
    float maxBias = 0;
    std::memcpy(&scale, node->op_params, sizeof(float));
    std::memcpy(&maxBias, reinterpret_cast<const char*>(node->op_params) + sizeof(float), sizeof(float));
    if (mask == nullptr || mask->type != GGML_TYPE_F32 || mask->nb[0] != sizeof(float) || node->src[2] != nullptr || maxBias != 0.0f) continue;
    if (node->src[0]->type != GGML_TYPE_F32 || node->src[0]->nb[0] != sizeof(float)) continue;
    uint32_t bits = 0;
    std::memcpy(&bits, &scale, sizeof(float));
    // The scale travels in the userdata pointer's bits: the node's own parameters become the custom op's.
    ggml_out_product::computeByKernel(custom, context, node, ggml_softmax::compute, reinterpret_cast<void*>(static_cast<uintptr_t>(bits)));
  }
#else
  (void)ggml, (void)custom, (void)context, (void)graph, (void)end;
#endif
}
