#include "ggml-graph-measure.h"

#include <csetjmp>
#include <mutex>
#include <stdexcept>

namespace {

/** Where this thread's measure resumes when ggml aborts inside it; null outside a measure. */
thread_local std::jmp_buf* measureResume = nullptr;
thread_local char measureFailure[2048];
ggml_abort_callback_t previousCallback = nullptr;
std::once_flag installed;

void onGgmlAbort(const char* message) {
  if (measureResume != nullptr) {
    std::snprintf(measureFailure, sizeof(measureFailure), "%s", message);
    std::longjmp(*measureResume, 1);
  }
  // Any other abort goes on as ggml's own: the previous callback (or none), then abort().
  if (previousCallback != nullptr) previousCallback(message);
  else std::fprintf(stderr, "%s\n", message);
}

/** Only trivially destructible locals live here, so the jump back skips no destructor. */
bool reserveOrJump(const GgmlLibrary& ggml, ggml_gallocr_t measurer, ggml_cgraph* graph, size_t* bytes) {
  std::jmp_buf resume;
  if (setjmp(resume) != 0) {
    measureResume = nullptr;
    return false;
  }
  measureResume = &resume;
  ggml.ggml_gallocr_reserve_n_size(measurer, graph, nullptr, nullptr, bytes);
  measureResume = nullptr;
  return true;
}

}  // namespace

bool measureGraph(const GgmlLibrary& ggml, ggml_backend_buffer_type_t bufferType, ggml_cgraph* graph, size_t& bytes, std::string& failure) {
  std::call_once(installed, [&]() { previousCallback = ggml.ggml_set_abort_callback(onGgmlAbort); });
  ggml_gallocr_t measurer = ggml.ggml_gallocr_new(bufferType);
  if (measurer == nullptr) throw std::runtime_error("ggml could not create an allocator to size the graph");
  bytes = 0;
  const bool measured = reserveOrJump(ggml, measurer, graph, &bytes);
  // The abort comes before the allocator changes its free list, so it is whole enough to free.
  ggml.ggml_gallocr_free(measurer);
  if (!measured) failure = measureFailure;
  return measured;
}
