import { z } from "zod";
import { SeedSchema } from "../../src/core/schemas/sampler-settings.js";
import { FrontierConfigurationSchema } from "./frontier-configuration.js";
import { TrainerConfigurationSchema } from "./trainer-configuration.js";

/** Everything `selfplay train` runs with; a config file overrides any part of it. */
export const SelfPlayConfigurationSchema = z.strictObject({
  /** Policy updates. */
  steps: z.number().int().min(1).default(150),
  /** Proposals per step; each valid one gets `solvers` attempts. */
  proposals: z.number().int().min(1).default(32),
  solvers: z.number().int().min(1).default(8),
  /** The solvers' pass rate the proposer is paid for approaching (Gaussian reward). */
  targetPassRate: z.number().min(0).max(1).default(0.5),
  targetSigma: z.number().positive().default(0.2),
  /** Sampling temperature of both roles. */
  temperature: z.number().positive().default(1),
  /** Sequences the engine decodes in parallel. */
  sequences: z.number().int().min(1).max(256).default(16),
  /** Steps between held-out evaluations (greedy, on the engine); 0 evaluates only at the start and the end. */
  evaluateEvery: z.number().int().min(0).default(10),
  /** Held-out problems per evaluation. */
  evaluateProblems: z.number().int().min(1).default(500),
  seed: SeedSchema.default(0),
  /** How each proposal's target cluster is chosen: uniformly (default) or by the PRM-weighted frontier. */
  frontier: FrontierConfigurationSchema.default({ mode: "uniform" }),
  trainer: TrainerConfigurationSchema.default(
    // One optimizer step per update over the whole batch (~130 records with a non-zero advantage). Pilots on the shipped base:
    // 32 × 4 with minibatches of 64 at lr 5e-4 swung between 33% and 43% held-out; 16 × 8 at 1e-3 collapsed (34.6% → 19.6% in
    // 10 steps); this setting went 34.6% → 48.0% in 40 steps.
    TrainerConfigurationSchema.parse({ algorithm: "grpo", epochs: 1, minibatchSize: 512, optimizer: { learningRate: 3e-4, weightDecay: 0 } }),
  ),
});
export type SelfPlayConfiguration = z.infer<typeof SelfPlayConfigurationSchema>;
export type SelfPlayConfigurationInput = z.input<typeof SelfPlayConfigurationSchema>;
