{
  # The native generation loop. Built by scripts/build-native.mjs during `npm install`;
  # compiled against the llama.cpp headers of the release node-llama-cpp ships, and linked
  # to no llama.cpp at build time: it resolves node-llama-cpp's libllama at run time.
  "variables": {
    "llama_headers%": "<!(node scripts/build-native.mjs --headers)"
  },
  "targets": [
    {
      "target_name": "selfplay_native",
      "sources": [
        "native/addon.cpp",
        "native/devices/ggml-devices.cpp",
        "native/devices/vulkan-device-types.cpp",
        "native/engine-forward-timing.cpp",
        "native/engine-object.cpp",
        "native/generation-loop.cpp",
        "native/grammar-mask-replay.cpp",
        "native/ggml-library.cpp",
        "native/llama-library.cpp",
        "native/model-object.cpp",
        "native/request-parsing.cpp",
        "native/request-sampler.cpp",
        "native/trainer/ggml-attention-layout.cpp",
        "native/trainer/ggml-forward-graph.cpp",
        "native/trainer/ggml-graph-measure.cpp",
        "native/trainer/ggml-graph-runner.cpp",
        "native/trainer/ggml-policy.cpp",
        "native/trainer/ggml-policy-object.cpp",
        "native/trainer/ggml-policy-weights.cpp"
      ],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include_dir\")",
        "<(llama_headers)",
        "<(llama_headers)/include",
        "<(llama_headers)/ggml/include"
      ],
      "defines": [
        "NAPI_VERSION=8",
        "NAPI_CPP_EXCEPTIONS",
        "NODE_ADDON_API_CPP_EXCEPTIONS_ALL",
        "NODE_ADDON_API_DISABLE_DEPRECATED"
      ],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17"],
      "cflags_cc": ["-std=c++17", "-O2", "-Wall", "-Wextra", "-Wno-unused-parameter"],
      "libraries": ["-ldl"],
      "xcode_settings": {
        "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
        "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
        "MACOSX_DEPLOYMENT_TARGET": "11.0",
        "OTHER_CPLUSPLUSFLAGS": ["-O2"]
      }
    }
  ]
}
