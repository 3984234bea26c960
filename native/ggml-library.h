// The ggml functions the trainer calls, resolved at run time through the
// handle of the libllama node-llama-cpp loaded (dlsym on a handle also
// searches its dependencies, libggml-base and libggml), so the process keeps
// one ggml and one set of backends. As for llama.cpp, nothing links against
// ggml at build time: the bundled release's headers only give the signatures.
#pragma once

#include <string>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml.h"
#include "gguf.h"
#include "trainer/ggml-graph-view.h"

// Every ggml function the trainer uses. Adding one here is the only step needed to call it.
#define SELFPLAY_GGML_FUNCTIONS(X)             \
  X(ggml_init)                                 \
  X(ggml_free)                                 \
  X(ggml_tensor_overhead)                      \
  X(ggml_graph_overhead_custom)                \
  X(ggml_new_tensor_1d)                        \
  X(ggml_new_tensor_2d)                        \
  X(ggml_dup_tensor)                           \
  X(ggml_get_tensor)                           \
  X(ggml_get_type_traits)                      \
  X(ggml_set_name)                             \
  X(ggml_set_param)                            \
  X(ggml_set_loss)                             \
  X(ggml_set_input)                            \
  X(ggml_set_output)                           \
  X(ggml_nbytes)                               \
  X(ggml_nelements)                            \
  X(ggml_type_name)                            \
  X(ggml_get_rows)                             \
  X(ggml_rms_norm)                             \
  X(ggml_mul)                                  \
  X(ggml_add)                                  \
  X(ggml_add_inplace)                          \
  X(ggml_sub)                                  \
  X(ggml_div)                                  \
  X(ggml_scale)                                \
  X(ggml_scale_bias)                           \
  X(ggml_mul_mat)                              \
  X(ggml_reshape_2d)                           \
  X(ggml_reshape_3d)                           \
  X(ggml_permute)                              \
  X(ggml_cont)                                 \
  X(ggml_dup)                                  \
  X(ggml_cont_2d)                              \
  X(ggml_rope_ext)                             \
  X(ggml_soft_max)                             \
  X(ggml_soft_max_ext)                         \
  X(ggml_swiglu_split)                         \
  X(ggml_log)                                  \
  X(ggml_sum_rows)                             \
  X(ggml_sum)                                  \
  X(ggml_sqr)                                  \
  X(ggml_sqrt)                                 \
  X(ggml_clamp)                                \
  X(ggml_opt_step_adamw)                       \
  X(ggml_new_graph_custom)                     \
  X(ggml_build_forward_expand)                 \
  X(ggml_build_backward_expand)                \
  X(ggml_graph_get_grad)                       \
  X(ggml_graph_get_grad_acc)                   \
  X(ggml_graph_n_nodes)                        \
  X(ggml_graph_node)                           \
  X(ggml_graph_view)                           \
  X(ggml_backend_dev_by_type)                  \
  X(ggml_backend_dev_count)                 \
  X(ggml_backend_dev_get)                   \
  X(ggml_backend_dev_name)                  \
  X(ggml_backend_dev_description)           \
  X(ggml_backend_dev_type)                  \
  X(ggml_backend_dev_memory)                \
  X(ggml_backend_dev_by_name)               \
  X(ggml_backend_reg_name)                  \
  X(ggml_backend_sched_new)                 \
  X(ggml_backend_sched_free)                \
  X(ggml_backend_sched_reset)               \
  X(ggml_backend_sched_alloc_graph)         \
  X(ggml_backend_sched_graph_compute)       \
  X(ggml_backend_sched_set_tensor_backend)  \
  X(ggml_backend_sched_get_tensor_backend)  \
  X(ggml_backend_sched_get_buffer_size)     \
  X(ggml_op_name)                           \
  X(ggml_backend_dev_init)                     \
  X(ggml_backend_dev_backend_reg)              \
  X(ggml_backend_dev_supports_op)              \
  X(ggml_backend_get_device)                   \
  X(ggml_backend_buft_alloc_buffer)            \
  X(ggml_backend_buft_name)                    \
  X(ggml_backend_alloc_ctx_tensors_from_buft)  \
  X(ggml_backend_reg_get_proc_address)         \
  X(ggml_backend_free)                         \
  X(ggml_backend_graph_compute)                \
  X(ggml_backend_get_default_buffer_type)      \
  X(ggml_backend_alloc_ctx_tensors)            \
  X(ggml_backend_buffer_free)                  \
  X(ggml_backend_buffer_clear)                 \
  X(ggml_backend_buffer_set_usage)             \
  X(ggml_backend_buffer_get_size)              \
  X(ggml_backend_tensor_set)                   \
  X(ggml_backend_tensor_get)                   \
  X(ggml_gallocr_new)                          \
  X(ggml_gallocr_free)                         \
  X(ggml_gallocr_alloc_graph)                  \
  X(ggml_gallocr_get_buffer_size)              \
  X(ggml_gallocr_reserve_n_size)               \
  X(ggml_set_abort_callback)                   \
  X(gguf_init_from_file)                       \
  X(gguf_free)                                 \
  X(gguf_get_data_offset)                      \
  X(gguf_find_tensor)                          \
  X(gguf_get_tensor_offset)

struct GgmlLibrary {
#define SELFPLAY_DECLARE_GGML_FUNCTION(name) decltype(&::name) name = nullptr;
  SELFPLAY_GGML_FUNCTIONS(SELFPLAY_DECLARE_GGML_FUNCTION)
#undef SELFPLAY_DECLARE_GGML_FUNCTION
  /** The libllama whose dependencies the functions come from. */
  std::string path;
};

/**
 * The ggml of the bound llama.cpp library (bindLlamaLibrary first), resolved
 * once. Throws std::runtime_error naming the missing functions and the release
 * the addon was built against when the library lacks any.
 */
const GgmlLibrary& ggmlLibrary();
