#!/usr/bin/env bash
# Builds the CUDA check into BUILD_DIR (kept there for measure.sh): llama.cpp's ggml with one GPU
# backend for this machine's GPU only, libllama, llama-batched-bench, and selfplay-gpu-check (the
# trainer's own sources linked to that ggml). Needs git, cmake ≥ 3.18, a C++17 compiler, ninja
# (or make), and for CUDA nvcc with cuBLAS. No network, no Node.
#   bash scripts/gpu/build.sh BUILD_DIR
# Environment:
#   GPU_BACKEND=cuda (default) | cpu | vulkan
#   CUDA_ARCH=90            compute capability without the dot (default: nvidia-smi's first GPU; 90 when absent)
#   CUDA_FA=OFF             ON compiles ggml's CUDA flash-attention kernels (slower build; the check runs with FA off)
#   LLAMA_BUNDLE=path       the llama.cpp source bundle (default node_modules/node-llama-cpp/llama/gitRelease.bundle)
#   CUDA_STUBS=1            REHEARSAL ONLY: compile against scripts/gpu/rehearsal's declaration-only cuBLAS
#   TARGETS="..."           ninja targets (default: selfplay-gpu-check llama-batched-bench)
#   JOBS=N                  parallel jobs (default nproc)
set -euo pipefail
BUILD_DIR=${1:?usage: build.sh BUILD_DIR}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
GPU_BACKEND=${GPU_BACKEND:-cuda}
BUNDLE=${LLAMA_BUNDLE:-$ROOT/node_modules/node-llama-cpp/llama/gitRelease.bundle}
JOBS=${JOBS:-$(nproc)}
TARGETS=${TARGETS:-selfplay-gpu-check llama-batched-bench}
mkdir -p "$BUILD_DIR"
BUILD_DIR=$(cd "$BUILD_DIR" && pwd)
LOG="$BUILD_DIR/build.log"
start=$(date +%s)
say() { echo "[build $(( $(date +%s) - start ))s] $*" | tee -a "$LOG"; }

SRC="$BUILD_DIR/llama.cpp"
if [ ! -f "$SRC/CMakeLists.txt" ]; then
  [ -f "$BUNDLE" ] || { echo "no llama.cpp bundle at $BUNDLE (carry node_modules/node-llama-cpp/llama/gitRelease.bundle)" >&2; exit 2; }
  say "unbundling $BUNDLE"
  rm -rf "$SRC"
  git clone -q "$BUNDLE" "$SRC" 2>>"$LOG"
fi
say "llama.cpp source: $(git -C "$SRC" log -1 --format='%h %s' 2>/dev/null || echo '?')"

GENERATOR=()
if command -v ninja >/dev/null; then GENERATOR=(-G Ninja); else say "ninja absent: using make"; fi

OPTIONS=(
  -DCMAKE_BUILD_TYPE=Release
  -DLLAMA_SOURCE="$SRC"
  -DBUILD_SHARED_LIBS=ON
  -DGGML_NATIVE=ON
  -DGGML_CCACHE=OFF
  -DLLAMA_BUILD_NUMBER=0
)
case "$GPU_BACKEND" in
  cuda)
    if ! command -v nvcc >/dev/null; then
      for dir in /usr/local/cuda/bin /usr/local/cuda-*/bin /opt/cuda/bin; do
        if [ -x "$dir/nvcc" ]; then export PATH="$dir:$PATH"; break; fi
      done
    fi
    NVCC=$(command -v nvcc) || { echo "nvcc not found (PATH, /usr/local/cuda*/bin)" >&2; exit 2; }
    if [ -z "${CUDA_ARCH:-}" ]; then
      if command -v nvidia-smi >/dev/null && CAP=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1) && [ -n "$CAP" ]; then
        CUDA_ARCH=$(echo "$CAP" | tr -d '. ')
      else
        CUDA_ARCH=90
        say "no GPU answered nvidia-smi: compiling for compute capability 9.0"
      fi
    fi
    say "CUDA: $NVCC ($("$NVCC" --version | tail -1)), architecture ${CUDA_ARCH}-real, flash attention ${CUDA_FA:-OFF}"
    OPTIONS+=(
      -DGGML_CUDA=ON
      -DCMAKE_CUDA_COMPILER="$NVCC"
      -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH}-real"
      -DGGML_CUDA_FA="${CUDA_FA:-OFF}"
      -DGGML_CUDA_NCCL=OFF
    )
    TOOLKIT=$(cd "$(dirname "$(readlink -f "$NVCC")")/.." && pwd)
    HAS_CUBLAS=0
    for header in "$TOOLKIT"/include/cublas_v2.h "$TOOLKIT"/targets/*/include/cublas_v2.h /usr/local/cuda*/include/cublas_v2.h /usr/local/cuda*/targets/*/include/cublas_v2.h /usr/include/cublas_v2.h; do
      [ -f "$header" ] && HAS_CUBLAS=1
    done
    if [ "${CUDA_STUBS:-0}" != 1 ] && [ "$HAS_CUBLAS" = 0 ]; then
      # No cuBLAS in the toolkit: take PyTorch's (the nvidia-cublas wheel), if there is one.
      WHEEL=$(python3 -c 'import nvidia.cublas as m; print(list(m.__path__)[0])' 2>/dev/null || true)
      if [ -n "$WHEEL" ] && [ -f "$WHEEL/include/cublas_v2.h" ]; then
        say "cuBLAS from $WHEEL (the toolkit at $TOOLKIT has none)"
        OPTIONS+=(
          -DCMAKE_CUDA_FLAGS="-I$WHEEL/include"
          -DCMAKE_CXX_FLAGS="-I$WHEEL/include"
          -DCUDA_cublas_LIBRARY="$(ls "$WHEEL"/lib/libcublas.so* | head -1)"
          -DCUDA_cublasLt_LIBRARY="$(ls "$WHEEL"/lib/libcublasLt.so* | head -1)"
          -DCMAKE_BUILD_RPATH="$WHEEL/lib"
        )
      else
        echo "cuBLAS not found (no cublas_v2.h under $TOOLKIT, no nvidia-cublas wheel): ggml-cuda needs it" >&2
        exit 2
      fi
    fi
    if [ "${CUDA_STUBS:-0}" = 1 ]; then
      say "REHEARSAL: cuBLAS replaced by declarations only (scripts/gpu/rehearsal); the result cannot run"
      STUB_DIR="$BUILD_DIR/rehearsal-stubs"
      mkdir -p "$STUB_DIR"
      cc -shared -fPIC -o "$STUB_DIR/libcublas.so" "$HERE/rehearsal/stub.c"
      cc -shared -fPIC -o "$STUB_DIR/libcublasLt.so" "$HERE/rehearsal/stub.c"
      cc -shared -fPIC -o "$STUB_DIR/libcuda.so" "$HERE/rehearsal/stub.c"
      OPTIONS+=(
        -DCMAKE_CUDA_FLAGS="-I$HERE/rehearsal/include"
        -DCMAKE_CXX_FLAGS="-I$HERE/rehearsal/include"
        -DCUDA_cublas_LIBRARY="$STUB_DIR/libcublas.so"
        -DCUDA_cublasLt_LIBRARY="$STUB_DIR/libcublasLt.so"
        -DCUDA_cuda_driver_LIBRARY="$STUB_DIR/libcuda.so"
        -DCMAKE_EXE_LINKER_FLAGS="-Wl,--allow-shlib-undefined"
      )
    fi
    ;;
  vulkan) OPTIONS+=(-DGGML_VULKAN=ON) ;;
  cpu) ;;
  *) echo "GPU_BACKEND must be cuda, vulkan or cpu" >&2; exit 2 ;;
esac

say "configuring ($GPU_BACKEND)"
cmake -S "$HERE/harness" -B "$BUILD_DIR/build" "${GENERATOR[@]}" "${OPTIONS[@]}" >>"$LOG" 2>&1 || { tail -40 "$LOG"; exit 1; }
say "building $TARGETS with $JOBS jobs"
# shellcheck disable=SC2086
cmake --build "$BUILD_DIR/build" --target $TARGETS -j "$JOBS" >>"$LOG" 2>&1 || { grep -E "error|Error" "$LOG" | head -30; tail -20 "$LOG"; exit 1; }
echo "$GPU_BACKEND" > "$BUILD_DIR/backend"
for t in $TARGETS; do [ -x "$BUILD_DIR/build/bin/$t" ] && say "built $BUILD_DIR/build/bin/$t"; done
exit 0
