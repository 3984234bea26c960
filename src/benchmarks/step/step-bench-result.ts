import { z } from "zod";

/** One RL step, phase by phase, in wall-clock seconds. */
export const StepTimingSchema = z.object({
  step: z.number().int().positive(),
  /** `arena.generateRollouts` less the verifiers' time: proposals, solver sub-episodes, model calls with logprobs. */
  rolloutSeconds: z.number().min(0),
  /** Inside the verifiers (parsing answers, pass rates, rewards). */
  scoringSeconds: z.number().min(0),
  /** `assignCredit` and `buildTrainingBatch`. */
  creditSeconds: z.number().min(0),
  /** `Trainer.update`: scoring with π_old, forward + backward + AdamW on every minibatch. */
  updateSeconds: z.number().min(0),
  /** `Trainer.sync`: the new weights exported and swapped into the engine. */
  syncSeconds: z.number().min(0),
  totalSeconds: z.number().min(0),
  /** Episodes run, sub-episodes included. */
  rollouts: z.number().int().min(0),
  completionTokens: z.number().int().min(0),
  trainedRecords: z.number().int().min(0),
  trainedTokens: z.number().int().min(0),
});
export type StepTiming = z.infer<typeof StepTimingSchema>;

export const StepBenchResultSchema = z.object({
  benchmark: z.literal("step"),
  quick: z.boolean(),
  /** The base model (default the bundled arithmetic base). */
  model: z.string().min(1),
  /** The environment whose plan a step runs. */
  environment: z.string().min(1),
  /** One step's plan: episode types, prompts, group sizes. */
  plan: z.array(z.object({ episodeType: z.string(), count: z.number().int().positive(), groupSize: z.number().int().positive().optional() })),
  sequences: z.number().int().positive(),
  /** The trainer backend the update ran on. */
  trainer: z.string().min(1),
  /** Every step measured, in order; the first also pays for warming up (tfjs kernels, the first grammar). */
  steps: z.array(StepTimingSchema).min(1),
});
export type StepBenchResult = z.infer<typeof StepBenchResultSchema>;
