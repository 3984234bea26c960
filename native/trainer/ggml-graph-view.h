// ggml_graph_view and the struct it returns by value: a range of a graph's nodes that shares the whole
// graph's use counts and hash set, as ggml's scheduler computes its splits. ggml.h leaves struct ggml_cgraph
// opaque and declares ggml_graph_view only in ggml/src/ggml-impl.h; both are copied here from the bundled
// release (v0.4.0, the only one the addon binds to: load-native-addon.ts checks the release).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ggml.h"

extern "C" {

struct ggml_hash_set {
  size_t size;
  uint32_t* used;
  struct ggml_tensor** keys;
};

struct ggml_cgraph {
  int size;
  int n_nodes;
  int n_leafs;
  struct ggml_tensor** nodes;
  struct ggml_tensor** grads;
  struct ggml_tensor** grad_accs;
  struct ggml_tensor** leafs;
  int32_t* use_counts;
  struct ggml_hash_set visited_hash_set;
  /** enum ggml_cgraph_eval_order, which ggml.h does not declare: an int. */
  int order;
  uint64_t uid;
};

struct ggml_cgraph ggml_graph_view(struct ggml_cgraph* cgraph, int i0, int i1);
}
