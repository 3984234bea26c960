/**
 * Every error selfplay raises on purpose. Each message says what went wrong and
 * what to do about it; `name` is stable so metrics can count failures by kind.
 */
export class SelfplayError extends Error {
  override readonly name: string = "SelfplayError";
}

/** A configuration value, CLI flag or schema-validated input is not allowed. */
export class InvalidInputError extends SelfplayError {
  override readonly name: string = "InvalidInputError";
  constructor(
    /** Dotted path of the offending field, e.g. `count` or `sampler.temperature`. */
    readonly field: string,
    /** What is allowed instead. */
    readonly allowed: string,
    readonly received?: unknown,
  ) {
    super(
      `${field}: ${received === undefined ? "" : `got ${JSON.stringify(received)}; `}expected ${allowed}`,
    );
  }
}

/**
 * A configuration or options object has a key its schema does not declare —
 * usually a misspelling, which would otherwise be dropped without a word.
 */
export class UnknownKeyError extends InvalidInputError {
  override readonly name: string = "UnknownKeyError";
  constructor(
    /** Where the key is, ending with the key itself, e.g. `my.json: trainer.optimizer.learningRat`. */
    field: string,
    /** What to do: `unknown key; did you mean "learningRate"?`. */
    hint: string,
  ) {
    super(field, hint);
    this.message = `${field}: ${hint}`;
  }
}

/** An EpisodeRequest names an episode type that was never registered with the arena. */
export class UnknownEpisodeTypeError extends SelfplayError {
  override readonly name = "UnknownEpisodeTypeError";
  constructor(readonly episodeType: string, registered: readonly string[]) {
    super(
      `unknown episode type "${episodeType}"; register it with arena.register() first ` +
        `(registered: ${registered.length === 0 ? "none" : registered.join(", ")})`,
    );
  }
}

/** An episode called a role it does not declare. */
export class UnknownRoleError extends SelfplayError {
  override readonly name = "UnknownRoleError";
  constructor(readonly roleId: string, episodeType: string, declared: readonly string[]) {
    super(`episode "${episodeType}" called role "${roleId}", which it does not declare (declared: ${declared.join(", ")})`);
  }
}

/** A judge's output could not be parsed within its retry budget. */
export class JudgeOutputError extends SelfplayError {
  override readonly name = "JudgeOutputError";
  constructor(readonly attempts: number, readonly lastOutput: string, reason: string) {
    super(`judge output did not parse after ${attempts} attempt(s): ${reason}; last output: ${JSON.stringify(lastOutput.slice(0, 200))}`);
  }
}

/** A schema-bound call produced no output that validated within its attempt budget. */
export class StructuredOutputError extends SelfplayError {
  override readonly name = "StructuredOutputError";
  constructor(readonly attempts: number, readonly lastOutput: string, reason: string) {
    super(
      `no output validated against the schema in ${attempts} attempt(s): ${reason}; last output: ${JSON.stringify(lastOutput.slice(0, 200))}. ` +
        "Raise maxAttempts or maxTokens, or simplify the schema",
    );
  }
}

/** A JSON schema uses something a grammar cannot express; `path` is where in the schema. */
export class UnsupportedSchemaError extends SelfplayError {
  override readonly name = "UnsupportedSchemaError";
  constructor(readonly path: string, expected: string) {
    super(`schema at ${path}: expected ${expected}; simplify the schema (validation after sampling can still check the rest)`);
  }
}

/**
 * A proposer wrote a problem of a held-out split. The environment drops it:
 * the rollout fails at scoring with this error, so neither the problem nor
 * its solutions are trained on, and evaluation stays honest.
 */
export class HeldOutProblemError extends SelfplayError {
  override readonly name = "HeldOutProblemError";
  constructor(readonly problem: string) {
    super(`"${problem}" is a held-out problem; it is dropped from training`);
  }
}

/** A verifier returned rewards that cannot be trained on (missing role, NaN, infinity). */
export class InvalidRewardError extends SelfplayError {
  override readonly name = "InvalidRewardError";
}

/** A JSONL file has a corrupt line before its last one (a torn last line is tolerated). */
export class CorruptJsonlError extends SelfplayError {
  override readonly name = "CorruptJsonlError";
  constructor(readonly path: string, readonly lineNumber: number, readonly reason: string) {
    super(`${path}:${lineNumber}: not a valid JSON line (${reason}); only the last line of an interrupted file may be torn`);
  }
}

/** A ScriptedInferenceClient was asked for a conversation its script does not cover. */
export class ScriptExhaustedError extends SelfplayError {
  override readonly name = "ScriptExhaustedError";
}

/** A run was aborted through its AbortSignal. */
export class RolloutAbortedError extends SelfplayError {
  override readonly name = "RolloutAbortedError";
}

/**
 * A RolloutPool's episode module cannot be used: it does not load, its export
 * is not a factory of episodes, or it lacks an episode type the arena runs.
 */
export class EpisodeModuleError extends SelfplayError {
  override readonly name = "EpisodeModuleError";
  constructor(
    /** The module as given in `pool.episodes.module`. */
    readonly module: string,
    readonly problem: string,
  ) {
    super(`episode module ${module}: ${problem}`);
  }
}

/**
 * A rollout's worker thread died twice — it exited, threw outside the
 * episode's own code, or was killed — once on the first try and once on the
 * retry in a worker of its own. The rollout is recorded as failed with this error.
 */
export class RolloutWorkerCrashedError extends SelfplayError {
  override readonly name = "RolloutWorkerCrashedError";
  constructor(readonly rolloutId: string, readonly episodeType: string, reason: string) {
    super(
      `rollout ${rolloutId} (episode "${episodeType}"): its worker died on the first try and on the retry (${reason}); ` +
        "look for process.exit, an exception thrown outside the episode's promises (a timer, an event handler) or a native crash in the episode's code",
    );
  }
}

/**
 * A rollout ran past the pool's `taskTimeoutMs` (time in model calls not
 * counted) on its first try and on its retry; its worker was replaced each time.
 */
export class RolloutTimeoutError extends SelfplayError {
  override readonly name = "RolloutTimeoutError";
  constructor(readonly rolloutId: string, readonly episodeType: string, readonly timeoutMs: number) {
    super(
      `rollout ${rolloutId} (episode "${episodeType}") ran past pool.taskTimeoutMs (${timeoutMs} ms, model calls not counted) ` +
        "on the first try and on the retry; find the loop that never yields, or raise pool.taskTimeoutMs",
    );
  }
}

/** A RolloutPool was given work after close(), or cannot start its workers. */
export class RolloutPoolError extends SelfplayError {
  override readonly name = "RolloutPoolError";
}

/** Serialisable form of an error, as recorded in rollouts and metrics. */
export interface ErrorRecord {
  name: string;
  message: string;
}

export function toErrorRecord(error: unknown): ErrorRecord {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "NonErrorThrown", message: String(error) };
}

/**
 * A file could not be used as GGUF. `path` names the file; the subclass says
 * which problem it has. Catch this class to handle every GGUF problem at once.
 */
export class GgufError extends SelfplayError {
  override readonly name: string = "GgufError";
  constructor(
    readonly path: string,
    /** What is wrong with the file and what to do about it. */
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`${path}: ${problem}`, options);
  }
}

/** The GGUF file does not exist (or cannot be opened). */
export class GgufFileNotFoundError extends GgufError {
  override readonly name = "GgufFileNotFoundError";
  constructor(path: string, options?: ErrorOptions) {
    super(path, "file not found; check the path", options);
  }
}

/** The file does not start with the GGUF magic bytes. */
export class NotGgufError extends GgufError {
  override readonly name = "NotGgufError";
  constructor(path: string, detail: string) {
    super(path, `not a GGUF file (${detail}); pass a .gguf model file`);
  }
}

/** The file is GGUF, but of a version this reader does not read (it reads 2 and 3). */
export class UnsupportedGgufVersionError extends GgufError {
  override readonly name = "UnsupportedGgufVersionError";
  constructor(path: string, readonly version: number) {
    super(
      path,
      `GGUF version ${version} is not supported (supported: 2, 3)` +
        (version > 0xffff ? "; the file may be big-endian, convert it to a little-endian GGUF" : "; convert the model with a current llama.cpp"),
    );
  }
}

/** The header or a tensor's data runs past the end of the file: an interrupted download or copy. */
export class TruncatedGgufError extends GgufError {
  override readonly name = "TruncatedGgufError";
  constructor(path: string, what: string, fileSize: number) {
    super(path, `${what} runs past the end of the file (${fileSize} bytes); the file is truncated, download or copy it again`);
  }
}

/** The file is GGUF but holds a value no valid GGUF holds (bad type id, misaligned offset, duplicate key...). */
export class CorruptGgufError extends GgufError {
  override readonly name = "CorruptGgufError";
}

/** A tensor's element type cannot be read (unknown to selfplay) or dequantised. */
export class UnsupportedTensorTypeError extends GgufError {
  override readonly name = "UnsupportedTensorTypeError";
  constructor(path: string, readonly tensorName: string, readonly tensorType: string, supported: readonly string[]) {
    super(
      path,
      `tensor "${tensorName}" has type ${tensorType}, which selfplay cannot read ` +
        `(supported: ${supported.join(", ")}); re-quantise the model to one of those types`,
    );
  }
}

/** A tensor was asked for by a name the GGUF file does not contain. */
export class GgufTensorNotFoundError extends GgufError {
  override readonly name = "GgufTensorNotFoundError";
  constructor(path: string, readonly tensorName: string) {
    super(path, `no tensor named "${tensorName}"; list the file's tensors with inspectGguf()`);
  }
}

/**
 * A GGUF file is not a model selfplay can hand to llama.cpp: unsupported
 * architecture, a missing or wrong hyperparameter, tensor or tokenizer key.
 * llama.cpp aborts the whole process on some of these, so they are caught first.
 */
export class InvalidModelFileError extends SelfplayError {
  override readonly name = "InvalidModelFileError";
  constructor(
    readonly path: string,
    /** The metadata key or tensor name at fault, e.g. `llama.feed_forward_length` or `blk.0.attn_q.weight`. */
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${path}: ${field}: ${problem}`);
  }
}

/**
 * A GGUF file is not a LoRA adapter selfplay can hand to llama.cpp: not an
 * adapter, a missing or mistyped key, unpaired or misshapen lora_a/lora_b
 * tensors. llama.cpp aborts the process on some of these (a non-float32
 * `adapter.lora.alpha`), so they are caught first.
 */
export class InvalidAdapterFileError extends SelfplayError {
  override readonly name = "InvalidAdapterFileError";
  constructor(
    readonly path: string,
    /** The metadata key or tensor name at fault, e.g. `adapter.lora.alpha` or `blk.0.attn_q.weight.lora_a`. */
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${path}: ${field}: ${problem}`);
  }
}

/**
 * A LoRA adapter does not fit the base model it is used with: another
 * architecture, a tensor the model does not have, or shapes that disagree.
 * llama.cpp would refuse the adapter, or apply it to the wrong weights.
 */
export class AdapterMismatchError extends SelfplayError {
  override readonly name = "AdapterMismatchError";
  constructor(
    readonly adapterPath: string,
    readonly baseModelPath: string,
    /** The metadata key or tensor name at fault. */
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${adapterPath}: ${field}: ${problem} (base model ${baseModelPath}); use the adapter with the model it was made for`);
  }
}

/**
 * The tfjs wasm backend ran out of memory. WebAssembly's heap stops at 4 GiB,
 * and every f32 weight takes 4 bytes of it: scoring fits models up to about a
 * billion parameters less activations, training (weights, gradients, optimiser
 * state) about a quarter of that. The wasm instance is unusable afterwards.
 */
export class WasmOutOfMemoryError extends SelfplayError {
  override readonly name = "WasmOutOfMemoryError";
  constructor(
    /** What needed the memory, e.g. `loading model.gguf`. */
    readonly task: string,
    /** Bytes the task was estimated to need, when known. */
    readonly requiredBytes: number | undefined,
    /** The heap's ceiling in bytes. */
    readonly ceilingBytes: number,
    options?: ErrorOptions,
  ) {
    const gibibytes = (bytes: number) => (bytes / 2 ** 30).toFixed(2);
    super(
      `${task}${requiredBytes === undefined ? " ran out of memory" : ` needs ${gibibytes(requiredBytes)} GiB`} on the tfjs wasm backend, ` +
        `whose heap stops at ${gibibytes(ceilingBytes)} GiB: that holds at most ~${(ceilingBytes / 4 / 1e9).toFixed(2)} billion f32 parameters ` +
        "with nothing else, and about a quarter of that for training. Install @tensorflow/tfjs-node or @tensorflow/tfjs-node-gpu " +
        "(with its native binary), score fewer tokens per batch, or use a smaller model",
      options,
    );
  }
}

/**
 * The native decoder (selfplay's C++ generation loop, native/) cannot be used:
 * the addon was not built, failed to load, or was built against another
 * llama.cpp release than the one node-llama-cpp loaded. `reason` says which.
 */
export class NativeAddonUnavailableError extends SelfplayError {
  override readonly name = "NativeAddonUnavailableError";
  constructor(readonly reason: string) {
    super(
      `the native decoder is unavailable: ${reason}. Build it with \`node scripts/build-native.mjs\` (needs a C++ compiler and git), ` +
        'or choose decoder: "node-llama-cpp"',
    );
  }
}

/** The native decoder failed: llama.cpp refused a model, adapter or context, or a decode step failed. */
export class NativeEngineError extends SelfplayError {
  override readonly name: string = "NativeEngineError";
}

/** A native model or engine was used after dispose(), or was disposed while a call was running. */
export class NativeEngineDisposedError extends NativeEngineError {
  override readonly name = "NativeEngineDisposedError";
}

/**
 * A policy over a quantised (or f16) base without a LoRA adapter was asked to
 * sync its weights: a full-weight export writes every matrix as f32, several
 * times the base's size, each policy version.
 */
export class QuantisedPolicyExportError extends SelfplayError {
  override readonly name = "QuantisedPolicyExportError";
  constructor(
    readonly modelPath: string,
    /** The non-f32 tensor types of the base, e.g. `q8_0`. */
    readonly tensorTypes: readonly string[],
  ) {
    super(
      `${modelPath} stores ${tensorTypes.join(", ")} weights and the policy has no LoRA adapter: exporting full weights would write them as f32 ` +
        "every policy version. Train an adapter instead (createTrainableAdapter, then Policy.load({ modelPath, loraPath })), " +
        'or pass format: "full" to syncPolicy to accept the f32 copies',
    );
  }
}

/**
 * A PRM directory (`prm.onnx` + `prm.json`) cannot be used: a file is missing
 * or unreadable, the metadata does not validate, or the featuriser does not
 * match the one the PRM was trained with. `problem` says which and what to do.
 */
export class PrmModelError extends SelfplayError {
  override readonly name = "PrmModelError";
  constructor(
    /** The PRM directory or file at fault. */
    readonly path: string,
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`${path}: ${problem}`, options);
  }
}

/** A PrmScorer returned something other than one probability in [0, 1] per state. */
export class InvalidPrmScoreError extends SelfplayError {
  override readonly name = "InvalidPrmScoreError";
}

/**
 * A llama.cpp tool the benchmarks measure against (`llama-batched-bench`,
 * `llama-finetune`) is not built, could not be built, or failed on a run.
 * `problem` says which and what to do.
 */
export class LlamaCppToolError extends SelfplayError {
  override readonly name = "LlamaCppToolError";
  constructor(
    /** The tool's executable name, e.g. `llama-batched-bench`. */
    readonly tool: string,
    readonly problem: string,
  ) {
    super(`${tool}: ${problem}`);
  }
}

/** A benchmark's sides would not measure the same work (a forced completion length not reached, say): it reports nothing rather than a wrong ratio. */
export class BenchmarkMismatchError extends SelfplayError {
  override readonly name = "BenchmarkMismatchError";
}

/**
 * This machine's saved RolloutPool default (`pool-default.json`, written by
 * `selfplay bench pool --save`) cannot be used: it is not JSON or does not
 * validate. `path` names the file.
 */
export class PoolDefaultError extends SelfplayError {
  override readonly name = "PoolDefaultError";
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}; re-run \`selfplay bench pool --save\` to measure this machine again, or delete the file to run in-process`);
  }
}
