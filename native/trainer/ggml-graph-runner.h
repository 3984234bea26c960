// Where the trainer's graphs are computed: on one ggml device, with ggml's CPU as the fallback for
// an operation that device lacks (or that the caller forces onto the CPU). A graph the device runs
// whole is allocated by gallocr in device memory and computed directly, node ranges included (the
// forward pass, then later its backward pass over the same activations). A graph with any node on
// the CPU goes through a ggml_backend_sched of [device, CPU], which places each node and copies
// tensors between the two; the nodes it placed on the CPU are counted.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>

#include "../ggml-library.h"

class GgmlGraphRunner {
 public:
  /**
   * `backend` computes; `cpu` is ggml's CPU backend for fallbacks, null when `backend` is the CPU
   * (nothing falls back from the CPU). `cpuOperations`: ggml operation names (ggml_op_name, e.g.
   * "SOFT_MAX_BACK") computed on the CPU even where the device has them.
   */
  GgmlGraphRunner(const GgmlLibrary& ggml, ggml_backend_t backend, ggml_backend_t cpu, std::set<std::string> cpuOperations, size_t graphSize);
  ~GgmlGraphRunner();
  GgmlGraphRunner(const GgmlGraphRunner&) = delete;
  GgmlGraphRunner& operator=(const GgmlGraphRunner&) = delete;

  /** Whether every node of `graph` runs on the backend: then it may be allocated with a gallocr and computed directly. */
  bool runsWhole(ggml_cgraph* graph) const;

  /**
   * Allocates `graph` through the scheduler (after a reset: what an earlier scheduled graph held is
   * gone), lets `setInputs` write its inputs, computes it and adds the nodes placed on the CPU to the
   * count. Only for graphs with their leaves (built with ggml_build_forward_expand), not node ranges.
   */
  void computeScheduled(ggml_cgraph* graph, const std::function<void()>& setInputs);

  /** Computes an allocated graph (or node range) on the backend directly. */
  void computeDirect(ggml_cgraph* graph);

  /** Nodes computed on the CPU although the backend is another device, since the policy was loaded. */
  int64_t fallbackNodes() const { return fallbacks; }
  /** Bytes of the scheduler's compute buffers (zero until a graph needed it). */
  size_t scheduledBytes() const;

 private:
  bool forcedOntoCpu(const ggml_tensor* node) const;

  const GgmlLibrary& ggml;
  ggml_backend_t backend;
  ggml_backend_t cpu;
  std::set<std::string> cpuOperations;
  size_t graphSize;
  ggml_backend_sched_t scheduler = nullptr;
  int64_t fallbacks = 0;
};
