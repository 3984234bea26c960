#include "llama-library.h"

#include <dlfcn.h>

#include <memory>
#include <mutex>
#include <stdexcept>

#ifdef __APPLE__
#include <mach-o/dyld.h>
#else
#include <link.h>
#endif

namespace {

std::mutex bindMutex;
std::unique_ptr<LlamaLibrary> bound;

std::string baseName(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string folderOf(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

// libllama.so, libllama.v0.4.0.so, libllama.cuda.v0.4.0.so, libllama.dylib... but not libllama-common.
bool isLlamaLibrary(const std::string& path) {
  const std::string name = baseName(path);
  return name.rfind("libllama.", 0) == 0 && (name.find(".so") != std::string::npos || name.find(".dylib") != std::string::npos);
}

}  // namespace

std::vector<std::string> findLoadedLlamaLibraries() {
  std::vector<std::string> paths;
#ifdef __APPLE__
  for (uint32_t index = 0; index < _dyld_image_count(); index++) {
    const char* name = _dyld_get_image_name(index);
    if (name != nullptr && isLlamaLibrary(name)) paths.emplace_back(name);
  }
#else
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        if (info->dlpi_name != nullptr && isLlamaLibrary(info->dlpi_name)) {
          static_cast<std::vector<std::string>*>(data)->emplace_back(info->dlpi_name);
        }
        return 0;
      },
      &paths);
#endif
  return paths;
}

const LlamaLibrary& bindLlamaLibrary(const std::string& path) {
  std::lock_guard<std::mutex> lock(bindMutex);
  if (bound) {
    if (bound->path == path) return *bound;
    throw std::runtime_error("the native decoder already uses " + bound->path + "; one llama.cpp library per process");
  }
  // RTLD_LOCAL and never dlclose: an already loaded library gives back its handle, so this is node-llama-cpp's instance.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* reason = dlerror();
    throw std::runtime_error("cannot load " + path + ": " + (reason == nullptr ? "unknown error" : reason));
  }
  auto library = std::make_unique<LlamaLibrary>();
  library->path = path;
  std::string missing;
#define SELFPLAY_RESOLVE_FUNCTION(name)                                                   \
  library->name = reinterpret_cast<decltype(&::name)>(dlsym(handle, #name));             \
  if (library->name == nullptr) missing += (missing.empty() ? "" : ", ") + std::string(#name);
  SELFPLAY_LLAMA_FUNCTIONS(SELFPLAY_RESOLVE_FUNCTION)
#undef SELFPLAY_RESOLVE_FUNCTION
  if (!missing.empty()) {
    throw std::runtime_error(path + " lacks " + missing + "; it is another llama.cpp release than the addon was built against");
  }
  // Loaded by us rather than node-llama-cpp: its backends (CPU variants, CUDA...) sit in the same folder.
  if (library->ggml_backend_dev_count() == 0) {
    library->ggml_backend_load_all_from_path(folderOf(path).c_str());
    library->llama_backend_init();
  }
  if (library->ggml_backend_dev_count() == 0) throw std::runtime_error("no ggml backend found beside " + path);
  // A canary for struct layouts: the loader has already matched release names, but a library
  // built from other sources would show here as shifted defaults rather than as corrupt calls.
  const llama_context_params contextDefaults = library->llama_context_default_params();
  const llama_model_params modelDefaults = library->llama_model_default_params();
  const bool layoutsMatch = contextDefaults.n_seq_max == 1 && contextDefaults.type_k == GGML_TYPE_F16 &&
                            contextDefaults.type_v == GGML_TYPE_F16 && contextDefaults.n_ubatch <= contextDefaults.n_batch &&
                            contextDefaults.abort_callback == nullptr && contextDefaults.ctx_other == nullptr &&
                            modelDefaults.devices == nullptr && modelDefaults.progress_callback == nullptr &&
                            modelDefaults.kv_overrides == nullptr && !modelDefaults.vocab_only && !modelDefaults.no_alloc;
  if (!layoutsMatch) {
    throw std::runtime_error(path + " returns default parameters that do not fit the headers the addon was built with; rebuild it");
  }
  bound = std::move(library);
  return *bound;
}

const LlamaLibrary& llamaLibrary() {
  std::lock_guard<std::mutex> lock(bindMutex);
  if (!bound) throw std::runtime_error("the native decoder is not bound to a llama.cpp library yet");
  return *bound;
}
