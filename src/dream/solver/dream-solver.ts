import type { InferenceClient } from "../../core/inference-client.js";
import type { Messages } from "../../core/schemas/message.js";
import { DEFAULT_SAMPLER, type SamplerOverrides } from "../../core/schemas/sampler-settings.js";

/** The dream cycle's solver role: a conversation and a sampler seed in, the model's reply out. */
export interface DreamSolver {
  write(messages: Messages, samplerSeed: number): Promise<string>;
}

/** Options of `clientDreamSolver`. */
export interface ClientDreamSolverOptions {
  /** Sampler settings over DEFAULT_SAMPLER. Default: maxTokens 768 (a program, not a word). */
  sampler?: SamplerOverrides;
}

/** The solver role over an InferenceClient: one unconstrained generation per attempt, seeded by the caller. */
export function clientDreamSolver(client: InferenceClient, options: ClientDreamSolverOptions = {}): DreamSolver {
  return {
    async write(messages, samplerSeed) {
      const sampler = { ...DEFAULT_SAMPLER, maxTokens: 768, ...options.sampler, seed: samplerSeed };
      const [output] = await client.generate([{ messages, sampler, constraint: null }]);
      return output?.text ?? "";
    },
  };
}
