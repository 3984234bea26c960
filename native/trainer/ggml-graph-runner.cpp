#include "ggml-graph-runner.h"

#include <stdexcept>
#include <utility>

namespace {

/** Nodes that compute nothing (views and reshapes of their source): no backend runs them. */
bool computesNothing(const ggml_tensor* node) {
  switch (node->op) {
    case GGML_OP_NONE: case GGML_OP_VIEW: case GGML_OP_RESHAPE: case GGML_OP_PERMUTE: case GGML_OP_TRANSPOSE:
      return true;
    default:
      return false;
  }
}

void check(ggml_status status) {
  if (status != GGML_STATUS_SUCCESS) throw std::runtime_error("ggml could not compute the graph (status " + std::to_string(status) + ")");
}

}  // namespace

GgmlGraphRunner::GgmlGraphRunner(const GgmlLibrary& ggml, ggml_backend_t backend, ggml_backend_t cpu, std::set<std::string> cpuOperations, size_t graphSize)
    : ggml(ggml), backend(backend), cpu(cpu), cpuOperations(std::move(cpuOperations)), graphSize(graphSize) {}

GgmlGraphRunner::~GgmlGraphRunner() {
  if (scheduler != nullptr) ggml.ggml_backend_sched_free(scheduler);
}

bool GgmlGraphRunner::forcedOntoCpu(const ggml_tensor* node) const {
  return !cpuOperations.empty() && cpuOperations.count(ggml.ggml_op_name(node->op)) > 0;
}

bool GgmlGraphRunner::runsWhole(ggml_cgraph* graph) const {
  if (cpu == nullptr) return true;
  ggml_backend_dev_t device = ggml.ggml_backend_get_device(backend);
  for (int index = 0; index < ggml.ggml_graph_n_nodes(graph); index++) {
    const ggml_tensor* node = ggml.ggml_graph_node(graph, index);
    if (computesNothing(node)) continue;
    if (forcedOntoCpu(node) || !ggml.ggml_backend_dev_supports_op(device, node)) return false;
  }
  return true;
}

void GgmlGraphRunner::computeScheduled(ggml_cgraph* graph, const std::function<void()>& setInputs) {
  if (cpu == nullptr) throw std::logic_error("a graph on the CPU is never scheduled");
  if (scheduler == nullptr) {
    ggml_backend_t backends[2] = {backend, cpu};
    // Room for the graph's nodes and leaves and the copies between the two backends.
    scheduler = ggml.ggml_backend_sched_new(backends, nullptr, 2, graphSize * 4, false, false);
    if (scheduler == nullptr) throw std::runtime_error("ggml could not create a scheduler for the device and the CPU");
  }
  ggml.ggml_backend_sched_reset(scheduler);
  for (int index = 0; index < ggml.ggml_graph_n_nodes(graph); index++) {
    ggml_tensor* node = ggml.ggml_graph_node(graph, index);
    if (!computesNothing(node) && forcedOntoCpu(node)) ggml.ggml_backend_sched_set_tensor_backend(scheduler, node, cpu);
  }
  if (!ggml.ggml_backend_sched_alloc_graph(scheduler, graph)) throw std::runtime_error("the device and the CPU could not allocate a graph's compute buffers");
  for (int index = 0; index < ggml.ggml_graph_n_nodes(graph); index++) {
    ggml_tensor* node = ggml.ggml_graph_node(graph, index);
    if (!computesNothing(node) && ggml.ggml_backend_sched_get_tensor_backend(scheduler, node) == cpu) fallbacks++;
  }
  setInputs();
  check(ggml.ggml_backend_sched_graph_compute(scheduler, graph));
}

void GgmlGraphRunner::computeDirect(ggml_cgraph* graph) { check(ggml.ggml_backend_graph_compute(backend, graph)); }

size_t GgmlGraphRunner::scheduledBytes() const {
  if (scheduler == nullptr) return 0;
  return ggml.ggml_backend_sched_get_buffer_size(scheduler, backend) + ggml.ggml_backend_sched_get_buffer_size(scheduler, cpu);
}
