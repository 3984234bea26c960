#!/usr/bin/env bash
# Measures the CUDA check with what build.sh built: makes the test models, then appends each figure to
# OUT_DIR/results.jsonl as it finishes (a run cut short keeps what it measured). See README.md.
#   bash scripts/gpu/measure.sh BUILD_DIR OUT_DIR
# Environment:
#   DEVICE=CUDA0          ggml device of the engine and the trainer (default: CUDA0, Vulkan0 or CPU after build.sh's backend)
#   SIZES=full            small: small presets only (the rehearsal); full: medium + qwen2-0.5b; all: + qwen2-1.5b
#   MODELS_DIR=dir        where the models are written (default BUILD_DIR/models; kept for a second run)
#   THREADS=N             ggml CPU threads (default all)
set -uo pipefail
BUILD_DIR=${1:?usage: measure.sh BUILD_DIR OUT_DIR}
OUT_DIR=${2:?usage: measure.sh BUILD_DIR OUT_DIR}
BUILD_DIR=$(cd "$BUILD_DIR" && pwd)
mkdir -p "$OUT_DIR"
OUT_DIR=$(cd "$OUT_DIR" && pwd)
BIN="$BUILD_DIR/build/bin/selfplay-gpu-check"
BENCH="$BUILD_DIR/build/bin/llama-batched-bench"
[ -x "$BIN" ] || { echo "no $BIN: run build.sh $BUILD_DIR first" >&2; exit 2; }
BACKEND=$(cat "$BUILD_DIR/backend" 2>/dev/null || echo cuda)
case "$BACKEND" in cuda) DEFAULT_DEVICE=CUDA0 ;; vulkan) DEFAULT_DEVICE=Vulkan0 ;; *) DEFAULT_DEVICE=CPU ;; esac
DEVICE=${DEVICE:-$DEFAULT_DEVICE}
SIZES=${SIZES:-full}
MODELS=${MODELS_DIR:-$BUILD_DIR/models}
mkdir -p "$MODELS"
export RESULTS="$OUT_DIR/results.jsonl"
LOG="$OUT_DIR/measure.log"
start=$(date +%s)
say() { echo "[measure $(( $(date +%s) - start ))s] $*" | tee -a "$LOG"; }
record() { echo "$1" >> "$RESULTS"; echo "$1"; }

# run NAME SECONDS COMMAND...: a step that may fail or overrun without stopping the others.
run() {
  local name=$1 limit=$2
  shift 2
  say "$name"
  local began=$(date +%s)
  timeout "$limit" "$@" >>"$LOG" 2>&1
  local rc=$?
  if [ $rc -ne 0 ]; then
    record "{\"figure\":\"failed\",\"step\":\"$name\",\"rc\":$rc,\"seconds\":$(( $(date +%s) - began ))}"
    tail -5 "$LOG" | sed 's/^/    /'
  fi
  return $rc
}

# engine NAME MODEL [LORA]: llama.cpp's prompt tokens/s on DEVICE (llama-batched-bench, prompts of 512, 1 and 8 at once).
engine() {
  local name=$1 model=$2 lora=${3:-}
  [ -x "$BENCH" ] || return 0
  local layers=99 output="$OUT_DIR/batched-bench-$name.txt"
  [ "$DEVICE" = CPU ] && layers=0
  local args=(-m "$model" -c 4608 -b 2048 -ub 512 -npp 512 -ntg 1 -npl 1,8 -ngl "$layers" -fa off --output-format jsonl -t "${THREADS:-$(nproc)}")
  [ "$DEVICE" != CPU ] && args+=(--device "$DEVICE")
  [ -n "$lora" ] && args+=(--lora "$lora")
  say "engine prompt tokens/s: $name"
  if timeout 120 "$BENCH" "${args[@]}" >"$output" 2>&1; then
    grep '^{"n_kv_max"' "$output" | sed "s|^{|{\"figure\":\"enginePromptTokensPerSecond\",\"device\":\"$DEVICE\",\"model\":\"$name\",|" | while read -r line; do record "$line"; done
  else
    record "{\"figure\":\"failed\",\"step\":\"batched-bench $name\",\"rc\":$?}"
    tail -5 "$output" | sed 's/^/    /'
  fi
}

say "device $DEVICE, sizes $SIZES, results $RESULTS"
if command -v nvidia-smi >/dev/null; then
  GPU=$(nvidia-smi --query-gpu=name,compute_cap,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -1)
  record "{\"figure\":\"machine\",\"gpu\":\"$GPU\",\"backend\":\"$BACKEND\",\"cpus\":$(nproc)}"
  # The device's memory in use, every 200 ms, for the peak (all processes; the check runs alone).
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 200 >"$OUT_DIR/memory-used-mib.txt" 2>/dev/null &
  SAMPLER=$!
  trap 'kill $SAMPLER 2>/dev/null' EXIT
else
  record "{\"figure\":\"machine\",\"gpu\":null,\"backend\":\"$BACKEND\",\"cpus\":$(nproc)}"
fi
"$BIN" devices >>"$LOG" 2>&1

if [ "$SIZES" = small ]; then
  FULL=small; BIG=qwen2-small
  run "models: small llama f32 + LoRA" 120 "$BIN" models "$MODELS" small llama f32 16
  run "models: small qwen2 q8_0 + LoRA" 120 "$BIN" models "$MODELS" small qwen2 q8_0 16
  F32="$MODELS/small-llama-f32"; Q8="$MODELS/small-qwen2-q8_0"
  TRAIN_STEPS=3
else
  run "models: medium llama f32 + LoRA" 120 "$BIN" models "$MODELS" medium llama f32 16
  run "models: medium qwen2 q8_0 + LoRA" 120 "$BIN" models "$MODELS" medium qwen2 q8_0 16
  run "models: qwen2-0.5b q8_0 + LoRA" 240 "$BIN" models "$MODELS" qwen2-0.5b qwen2 q8_0 16
  F32="$MODELS/medium-llama-f32"; Q8="$MODELS/qwen2-0.5b-qwen2-q8_0"
  TRAIN_STEPS=10
fi

# Agreement: trainer vs engine, and the engine's floor (batch vs one at a time).
run "agreement f32" 120 "$BIN" agreement "$DEVICE" "$F32.gguf"
run "agreement f32 + LoRA" 120 "$BIN" agreement "$DEVICE" "$F32.gguf" "$F32-lora.gguf"
[ "$SIZES" != small ] && run "agreement medium q8_0 + LoRA" 120 "$BIN" agreement "$DEVICE" "$MODELS/medium-qwen2-q8_0.gguf" "$MODELS/medium-qwen2-q8_0-lora.gguf"
run "agreement q8_0 + LoRA" 180 "$BIN" agreement "$DEVICE" "$Q8.gguf" "$Q8-lora.gguf"

# Gradients against the trainer on the CPU, and the fallback nodes of a step.
run "gradients f32 (every weight)" 120 "$BIN" gradients "$DEVICE" "$F32.gguf"
run "gradients f32 + LoRA" 120 "$BIN" gradients "$DEVICE" "$F32.gguf" "$F32-lora.gguf"
run "gradients q8_0 + LoRA" 240 "$BIN" gradients "$DEVICE" "$Q8.gguf" "$Q8-lora.gguf"

# Trainer tokens/s: 512-token sequences (the model's context if shorter), 1 and 8 per step.
run "train f32 (every weight), 1 sequence a step" 120 "$BIN" train "$DEVICE" "$F32.gguf" - 1 "$TRAIN_STEPS"
run "train f32 (every weight), 8 sequences a step" 120 "$BIN" train "$DEVICE" "$F32.gguf" - 8 "$TRAIN_STEPS"
run "train q8_0 + LoRA, 1 sequence a step" 180 "$BIN" train "$DEVICE" "$Q8.gguf" "$Q8-lora.gguf" 1 "$TRAIN_STEPS"
run "train q8_0 + LoRA, 8 sequences a step" 180 "$BIN" train "$DEVICE" "$Q8.gguf" "$Q8-lora.gguf" 8 "$TRAIN_STEPS"

# The engine's prompt tokens/s on the same files.
engine "$(basename "$F32")" "$F32.gguf"
engine "$(basename "$Q8")" "$Q8.gguf"
engine "$(basename "$Q8")+lora" "$Q8.gguf" "$Q8-lora.gguf"

if [ "$SIZES" = all ]; then
  B15="$MODELS/qwen2-1.5b-qwen2-q8_0"
  if run "models: qwen2-1.5b q8_0 + LoRA" 300 "$BIN" models "$MODELS" qwen2-1.5b qwen2 q8_0 16; then
    run "train qwen2-1.5b q8_0 + LoRA, 1 sequence a step" 180 "$BIN" train "$DEVICE" "$B15.gguf" "$B15-lora.gguf" 1 5
    run "train qwen2-1.5b q8_0 + LoRA, 8 sequences a step" 180 "$BIN" train "$DEVICE" "$B15.gguf" "$B15-lora.gguf" 8 5
    engine "$(basename "$B15")" "$B15.gguf"
    run "agreement qwen2-1.5b q8_0 + LoRA" 180 "$BIN" agreement "$DEVICE" "$B15.gguf" "$B15-lora.gguf"
  fi
fi

if [ -n "${SAMPLER:-}" ]; then
  kill "$SAMPLER" 2>/dev/null
  PEAK=$(sort -n "$OUT_DIR/memory-used-mib.txt" | tail -1)
  record "{\"figure\":\"peakDeviceMemory\",\"source\":\"nvidia-smi every 200 ms\",\"mib\":${PEAK:-null}}"
fi
say "done: $(wc -l < "$RESULTS") lines in $RESULTS"
