// ggml's AdamW step (GGML_OP_OPT_STEP_ADAMW) as our own AVX-512 custom operation: ggml CPU's is a
// scalar loop (its pointers may alias), ~5 ns a weight — 6–16 ms of a medium full-weight step,
// more than the clipping, the norm and the graph around it (12 against 21–24 ms a medium step, one
// busy core). The same operations in the same order as the bundled release's compiled loop (the
// same fused multiply-adds): three medium steps, one of them clipped, gave the same weights and
// moments bit for bit. Header-only (included by ggml-policy.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "ggml-product-kernels.h"

namespace ggml_adamw {

// GCC 12 warns of the undefined vectors inside its own AVX-512 intrinsics (-Wmaybe-uninitialized): not ours.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#if defined(__x86_64__)

/** Weights per job: a multiple of 16, large enough that the threads' share of a matrix stays contiguous. */
constexpr int64_t JOB_WEIGHTS = 16 * 1024;

/**
 * ggml_custom_op_t with src = {weight, gradient, m, v, parameters (7: α, β1, β2, ε, λ, β1h, β2h)}:
 * m ← m·β1 + g·(1 − β1), v ← v·β2 + g²·(1 − β2), w ← w·(1 − α·λ) − α·(m·β1h) / (√(v·β2h) + ε), in place.
 */
__attribute__((target("avx512f"))) inline void compute(ggml_tensor* dst, int ith, int nth, void*) {
  float* weight = static_cast<float*>(dst->src[0]->data);
  const float* gradient = static_cast<const float*>(dst->src[1]->data);
  float* first = static_cast<float*>(dst->src[2]->data);
  float* second = static_cast<float*>(dst->src[3]->data);
  const float* parameters = static_cast<const float*>(dst->src[4]->data);
  const float alpha = parameters[0], beta1 = parameters[1], beta2 = parameters[2], epsilon = parameters[3], decay = parameters[4];
  const float beta1h = parameters[5], beta2h = parameters[6];
  // As the compiled ggml loop: keep = fma(−α, λ, 1); m = fma(m, β1, g·(1 − β1)); v = fma(v, β2, (g·g)·(1 − β2));
  // w = fma(w, keep, −((α·(m·β1h)) / (√(v·β2h) + ε))).
  const float keep = std::fma(-alpha, decay, 1.0f);
  const __m512 vBeta1 = _mm512_set1_ps(beta1), vOneMinusBeta1 = _mm512_set1_ps(1.0f - beta1);
  const __m512 vBeta2 = _mm512_set1_ps(beta2), vOneMinusBeta2 = _mm512_set1_ps(1.0f - beta2);
  const __m512 vBeta1h = _mm512_set1_ps(beta1h), vBeta2h = _mm512_set1_ps(beta2h);
  const __m512 vAlpha = _mm512_set1_ps(alpha), vEpsilon = _mm512_set1_ps(epsilon), vKeep = _mm512_set1_ps(keep);
  const int64_t count = dst->src[0]->ne[0] * dst->src[0]->ne[1] * dst->src[0]->ne[2] * dst->src[0]->ne[3];
  const int64_t jobs = (count + JOB_WEIGHTS - 1) / JOB_WEIGHTS;
  for (int64_t job = ith; job < jobs; job += nth) {
    const int64_t end = std::min(count, (job + 1) * JOB_WEIGHTS);
    for (int64_t index = job * JOB_WEIGHTS; index < end; index += 16) {
      const __mmask16 lanes = end - index >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << (end - index)) - 1);
      const __m512 g = _mm512_maskz_loadu_ps(lanes, gradient + index);
      const __m512 m = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(lanes, first + index), vBeta1, _mm512_mul_ps(g, vOneMinusBeta1));
      const __m512 v = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(lanes, second + index), vBeta2, _mm512_mul_ps(_mm512_mul_ps(g, g), vOneMinusBeta2));
      _mm512_mask_storeu_ps(first + index, lanes, m);
      _mm512_mask_storeu_ps(second + index, lanes, v);
      const __m512 denominator = _mm512_add_ps(_mm512_sqrt_ps(_mm512_mul_ps(v, vBeta2h)), vEpsilon);
      const __m512 update = _mm512_div_ps(_mm512_mul_ps(vAlpha, _mm512_mul_ps(m, vBeta1h)), denominator);
      _mm512_mask_storeu_ps(weight + index, lanes, _mm512_fmsub_ps(_mm512_maskz_loadu_ps(lanes, weight + index), vKeep, update));
    }
  }
}

#endif
#pragma GCC diagnostic pop

}  // namespace ggml_adamw

/**
 * One weight's AdamW step on its gradient and moments, with `parameters` as ggml_opt_step_adamw's: our
 * kernel through `custom` (contiguous f32 tensors), else, `custom` null, ggml's operation.
 */
inline ggml_tensor* adamwStep(const GgmlLibrary& ggml, decltype(&ggml_custom_4d) custom, ggml_context* context, ggml_tensor* weight, ggml_tensor* gradient,
                              ggml_tensor* first, ggml_tensor* second, ggml_tensor* parameters) {
#if defined(__x86_64__)
  const bool contiguous = ggml_out_product::contiguousF32(weight) && ggml_out_product::contiguousF32(gradient) &&
                          ggml_out_product::contiguousF32(first) && ggml_out_product::contiguousF32(second);
  if (custom != nullptr && contiguous) {
    ggml_tensor* sources[5] = {weight, gradient, first, second, parameters};
    return custom(context, GGML_TYPE_F32, 1, 1, 1, 1, sources, 5, ggml_adamw::compute, GGML_N_TASKS_MAX, nullptr);
  }
#else
  (void)custom;
#endif
  return ggml.ggml_opt_step_adamw(context, weight, gradient, first, second, parameters);
}
