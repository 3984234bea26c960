#include "ggml-library.h"

#include <dlfcn.h>

#include <memory>
#include <mutex>
#include <stdexcept>

#include "llama-library.h"
#include "selfplay-llama-release.h"

namespace {

std::mutex resolveMutex;
std::unique_ptr<GgmlLibrary> resolved;

}  // namespace

const GgmlLibrary& ggmlLibrary() {
  std::lock_guard<std::mutex> lock(resolveMutex);
  if (resolved) return *resolved;
  const std::string path = llamaLibrary().path;
  // RTLD_NOLOAD: the library is loaded already (bindLlamaLibrary); this only takes its handle again.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (handle == nullptr) throw std::runtime_error(path + " is not loaded; bind the llama.cpp library first");
  auto library = std::make_unique<GgmlLibrary>();
  library->path = path;
  std::string missing;
#define SELFPLAY_RESOLVE_GGML_FUNCTION(name)                                        \
  library->name = reinterpret_cast<decltype(&::name)>(dlsym(handle, #name));       \
  if (library->name == nullptr) missing += (missing.empty() ? "" : ", ") + std::string(#name);
  SELFPLAY_GGML_FUNCTIONS(SELFPLAY_RESOLVE_GGML_FUNCTION)
#undef SELFPLAY_RESOLVE_GGML_FUNCTION
  if (!missing.empty()) {
    throw std::runtime_error("the ggml beside " + path + " lacks " + missing + "; the trainer was compiled against llama.cpp " +
                             SELFPLAY_LLAMA_CPP_RELEASE + " — install the node-llama-cpp that bundles it, or rebuild the addon");
  }
  resolved = std::move(library);
  return *resolved;
}
