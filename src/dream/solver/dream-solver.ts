import type { InferenceClient } from "../../core/inference-client.js";
import type { Messages } from "../../core/schemas/message.js";
import { DEFAULT_SAMPLER, type SamplerOverrides } from "../../core/schemas/sampler-settings.js";
import { DREAM_SOLVER_ROLE } from "./dream-solver-role.js";

/** The dream cycle's solver role: a conversation and a sampler seed in, the model's reply out. */
export interface DreamSolver {
  write(messages: Messages, samplerSeed: number): Promise<string>;
}

/** Options of `clientDreamSolver`. */
export interface ClientDreamSolverOptions {
  /** Sampler settings over DEFAULT_SAMPLER and DREAM_SOLVER_ROLE's (maxTokens 768). */
  sampler?: SamplerOverrides;
}

/** DREAM_SOLVER_ROLE over an InferenceClient: one unconstrained generation per attempt, seeded by the caller. */
export function clientDreamSolver(client: InferenceClient, options: ClientDreamSolverOptions = {}): DreamSolver {
  return {
    async write(messages, samplerSeed) {
      const sampler = { ...DEFAULT_SAMPLER, ...DREAM_SOLVER_ROLE.sampler, ...options.sampler, seed: samplerSeed };
      const [output] = await client.generate([{ messages, sampler, constraint: null }]);
      return output?.text ?? "";
    },
  };
}
