// ggmlLibrary() for the check's harness: every function pointer taken from the ggml this program is
// linked to, where the addon's native/ggml-library.cpp resolves them with dlsym in node-llama-cpp's
// libllama. The trainer's sources reach ggml only through this struct, so they compile unchanged.
#include <dlfcn.h>

#include <mutex>

#include "ggml-library.h"

const GgmlLibrary& ggmlLibrary() {
  static GgmlLibrary library;
  static std::once_flag once;
  std::call_once(once, []() {
#define SELFPLAY_LINK_GGML_FUNCTION(name) library.name = &::name;
    SELFPLAY_GGML_FUNCTIONS(SELFPLAY_LINK_GGML_FUNCTION)
#undef SELFPLAY_LINK_GGML_FUNCTION
    // The shared library that holds ggml_custom_4d: the trainer's AVX-512 kernels look it up there (dlopen RTLD_NOLOAD).
    Dl_info info;
    if (dladdr(reinterpret_cast<void*>(&::ggml_custom_4d), &info) != 0 && info.dli_fname != nullptr) library.path = info.dli_fname;
  });
  return library;
}
