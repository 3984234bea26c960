import { z } from "zod";

/** A RolloutPool setting: worker threads (0: in-process) and who serves their model calls. */
export const PoolCellSchema = z.object({
  workers: z.number().int().min(0).max(256),
  engine: z.enum(["shared", "per-worker"]),
});
export type PoolCell = z.infer<typeof PoolCellSchema>;

/** One timed round: the same batch of episodes in every cell. */
export const PoolRoundSchema = z.object({
  /** Wall-clock seconds of `generateRollouts`. */
  seconds: z.number().positive(),
  /** Episodes run, sub-episodes included. */
  rollouts: z.number().int().min(0),
  /** Completion tokens of every Step. */
  completionTokens: z.number().int().min(0),
  rolloutsPerSecond: z.number().min(0),
  tokensPerSecond: z.number().min(0),
});
export type PoolRound = z.infer<typeof PoolRoundSchema>;

export const PoolCellResultSchema = PoolCellSchema.extend({
  /** CPU threads of each engine: LlamaInferenceClient's default for a shared engine, the cores split among per-worker engines. */
  threads: z.number().int().min(1),
  /** Median of the rounds. */
  rolloutsPerSecond: z.number().min(0),
  /** Median of the rounds. */
  tokensPerSecond: z.number().min(0),
  /** Every timed round, in order (after one untimed warm-up round). */
  rounds: z.array(PoolRoundSchema).min(1),
});
export type PoolCellResult = z.infer<typeof PoolCellResultSchema>;

export const PoolMachineSchema = z.object({
  /** `os.availableParallelism()`. */
  cores: z.number().int().min(1),
  cpuModel: z.string(),
  platform: z.string(),
  arch: z.string(),
  /** 1, 5 and 15-minute load averages when the measurement started: other work on the machine slows every cell. */
  loadAverage: z.array(z.number()).length(3),
});
export type PoolMachine = z.infer<typeof PoolMachineSchema>;

export const PoolBenchResultSchema = z.object({
  benchmark: z.literal("pool"),
  quick: z.boolean(),
  /** The bundled arithmetic base. */
  model: z.string().min(1),
  /** Proposer episodes a round, each with `solvers` solver sub-episodes when its problem is valid. */
  proposals: z.number().int().min(1),
  solvers: z.number().int().min(1),
  /** Sequences of each engine. */
  sequences: z.number().int().min(1),
  cells: z.array(PoolCellResultSchema).min(1),
  /** The cell with the most rollouts per second (median): what `--save` makes this machine's default. */
  best: PoolCellSchema,
  machine: PoolMachineSchema,
});
export type PoolBenchResult = z.infer<typeof PoolBenchResultSchema>;
