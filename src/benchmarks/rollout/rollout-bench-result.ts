import { z } from "zod";

/** Generated tokens per wall-clock second. */
const TokensPerSecondSchema = z.number().positive();

/**
 * One configuration measured three ways in the same run, with the same prompt
 * length, generated length, sequences, threads, KV cache type and flash
 * attention: our arena rollouts, llama.cpp's own batched decoding, and
 * node-llama-cpp's plain evaluate loop.
 */
export const RolloutCellSchema = z.object({
  /** "fixed": one prompt, a forced completion length. "arithmetic": the bundled base solving arithmetic problems (natural lengths). */
  shape: z.enum(["fixed", "arithmetic"]),
  /** The model: a random project-made preset, `arithmetic-base` for the bundled model, or `file` for the user's `--model`. */
  preset: z.enum(["tiny", "medium", "arithmetic-base", "file"]),
  /** CPU threads of every decode in the cell. */
  threads: z.number().int().positive(),
  /** Sequences decoded together. */
  sequences: z.number().int().positive(),
  /** "exact": f32 KV cache, no flash attention (training); "fast": llama.cpp's defaults, f16 KV cache and flash attention "auto". */
  mode: z.enum(["exact", "fast"]),
  /** Prompt tokens per sequence (the mean, for the arithmetic shape). */
  promptTokens: z.number().positive(),
  /** Generated tokens per sequence (the mean, for the arithmetic shape). */
  generatedTokens: z.number().positive(),
  /** Arena rollouts through LlamaInferenceClient (native decoder), logprobs captured, verifier included. */
  ours: TokensPerSecondSchema,
  /** selfplay's native loop alone on the same token ids: `ours` less the arena, the client and JavaScript. */
  nativeLoop: TokensPerSecondSchema,
  /** llama-batched-bench: generated tokens over the whole timed pass (prompt + generation), as `ours` counts them. */
  llamaCpp: TokensPerSecondSchema.nullable(),
  /** llama-batched-bench's own figure, generation phase only (its S_TG column). */
  llamaCppGenerationOnly: TokensPerSecondSchema.nullable(),
  /** Why `llamaCpp` is null (the tool is not built, could not be built, or failed). */
  llamaCppReason: z.string().optional(),
  /**
   * The same llama-batched-bench program linked to the library our native loop runs on (node-llama-cpp's prebuilt,
   * portable one unless it was built from source): `ours` against it is our loop's overhead alone, without the
   * difference between a CPU-tuned and a portable build of llama.cpp.
   */
  llamaCppSameLibrary: TokensPerSecondSchema.nullable(),
  /** Why `llamaCppSameLibrary` is null (no native loop, no compiler, or the tool failed). */
  llamaCppSameLibraryReason: z.string().optional(),
  /** node-llama-cpp's `sequence.evaluate` loop, one per sequence, end of sequence fed back like any token. */
  nodeLlamaCpp: TokensPerSecondSchema,
  /** ours / llamaCpp, and nothing else; null when either is. */
  ratio: z.number().positive().nullable(),
  /** ours / llamaCppSameLibrary; null when either is. */
  sameLibraryRatio: z.number().positive().nullable(),
});
export type RolloutCell = z.infer<typeof RolloutCellSchema>;

/**
 * The arithmetic cell's workload through `OpenAICompatibleClient` over
 * llama-server processes this benchmark starts on 127.0.0.1 (exact mode, the
 * cell's sequences split across their slots), beside the in-process figure of
 * the same shape from the same run. Not a RolloutCell: llama.cpp's and
 * node-llama-cpp's replays measure the engine, which is the same here; what
 * this adds is the HTTP client and the fleet.
 */
export const FleetCellSchema = z.object({
  shape: z.literal("arithmetic"),
  preset: z.literal("arithmetic-base"),
  /** f32 KV cache and no flash attention on every server, as the in-process exact cell. */
  mode: z.literal("exact"),
  /** llama-server processes. */
  servers: z.number().int().positive(),
  /** Slots (`--parallel`) of each server: together, the in-process cell's sequences. */
  slotsPerServer: z.number().int().positive(),
  /** `--threads` and `--threads-batch` of each server. */
  threadsPerServer: z.number().int().positive(),
  /** Sequences in flight across the fleet: servers × slots. */
  sequences: z.number().int().positive(),
  /** Mean prompt and generated tokens per sequence of the fleet's rollouts. */
  promptTokens: z.number().positive(),
  generatedTokens: z.number().positive(),
  /** Arena rollouts through OpenAICompatibleClient over the servers: generated tokens per second (fastest timed round). */
  ours: TokensPerSecondSchema,
  /** `ours` of the in-process exact arithmetic cell of the same run (LlamaInferenceClient, native decoder, `inProcessThreads` threads, the same sequences). */
  inProcess: TokensPerSecondSchema,
  inProcessThreads: z.number().int().positive(),
  /** ours / inProcess: the fleet decodes on servers × threadsPerServer threads, the in-process cell on inProcessThreads. */
  ratioToInProcess: z.number().positive(),
  /** The same workload in process at servers × threadsPerServer threads (measured in this cell, the servers started and idle): like for like in decode threads. */
  inProcessSameThreads: TokensPerSecondSchema,
  /**
   * ours / inProcessSameThreads: both sides decode on as many threads, so what is left is the HTTP client's and the
   * fleet's cost, with the difference between llama.cpp builds (llama-server's, tuned for this CPU; the engine's
   * library) and between several one-process decodes and one decode on all the threads.
   */
  sameThreadsRatio: z.number().positive(),
  /** Wall seconds from spawning the servers (together) until every one answered `/health`: their model loads included. */
  serverStartSeconds: z.number().min(0),
  /** Seconds of `OpenAICompatibleClient.create`: every endpoint's /health and /props, the vocabulary load, the sampled-logprobs probe. */
  connectSeconds: z.number().min(0),
  /** Requests each server answered over the cell (the warm-up round and the connect probe included): the fleet's balance. */
  servedPerServer: z.array(z.number().int().min(0)),
  /** This machine's cores, and what the figures mean on it: on fewer cores than the servers' threads and this process, they compete, and neither ratio is the speed-up of machines of their own. */
  cores: z.number().int().positive(),
  note: z.string(),
});
export type FleetCell = z.infer<typeof FleetCellSchema>;

export const RolloutBenchResultSchema = z.object({
  benchmark: z.literal("rollout"),
  quick: z.boolean(),
  /** The machine's one-minute load average when the run ended, and its cores: context for the figures. */
  loadAverage: z.number().min(0),
  cores: z.number().int().positive(),
  cells: z.array(RolloutCellSchema),
  /** The arithmetic exact cell over two llama-server processes; null (with `fleetReason`) when llama-server is not built and the run may not build it, or it failed to start. */
  fleet: FleetCellSchema.nullable(),
  fleetReason: z.string().optional(),
  /**
   * What the ≥ 0.9 goal is judged on, at 1 and at 16 sequences: the fast-mode, fixed-shape cell of the largest
   * model measured at the thread count where llama.cpp was fastest (null when llama.cpp could not run).
   */
  best: z.object({
    ratioGoal: z.number().positive(),
    oneSequence: RolloutCellSchema.nullable(),
    sixteenSequences: RolloutCellSchema.nullable(),
    /** Both ratios reach the goal. */
    goalMet: z.boolean(),
  }),
});
export type RolloutBenchResult = z.infer<typeof RolloutBenchResultSchema>;
