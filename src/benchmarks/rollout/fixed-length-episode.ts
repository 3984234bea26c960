import { z } from "zod";
import { SingleTurnEpisode } from "../../core/episodes/single-turn-episode.js";
import type { CallModelOptions } from "../../core/episodes/episode-context.js";
import type { Messages } from "../../core/schemas/message.js";
import { RoleSchema } from "../../core/schemas/role.js";
import type { Rollout } from "../../core/schemas/rollout.js";
import type { Verifier, VerifierOutput } from "../../core/verifiers/verifier.js";

/**
 * A grammar that never completes: llama.cpp allows the end-of-generation
 * token only where the grammar may end, so every completion runs to
 * `maxTokens`, as llama-batched-bench's do. It is the one way our client has
 * to ignore the end of sequence; the native loop applies it to 259 candidates
 * a token, a few percent of a decode step (the `nativeLoop` figure carries the same cost).
 */
export const ENDLESS_GRAMMAR = "root ::= [^\\x00] root";

const PromptArtifactSchema = z.object({ prompt: z.string().min(1) });
type PromptArtifact = z.infer<typeof PromptArtifactSchema>;

/** Reward 1 for a completion of exactly `generatedTokens` tokens: a check that the length was forced, not a measure of quality. */
class CompletionLengthVerifier implements Verifier {
  constructor(private readonly generatedTokens: number) {}

  async score(rollout: Rollout): Promise<VerifierOutput> {
    const tokens = rollout.steps.reduce((sum, step) => sum + step.completionTokenIds.length, 0);
    return { rewards: { writer: tokens === this.generatedTokens ? 1 : 0 }, details: { tokens } };
  }
}

/** One prompt, one completion of exactly `generatedTokens` tokens at temperature 1, logprobs recorded like any Step. */
export class FixedLengthEpisode extends SingleTurnEpisode<PromptArtifact> {
  readonly type = "fixed-length";
  readonly roles;
  readonly verifier: Verifier;
  protected readonly roleId = "writer";
  protected readonly artifactSchema = PromptArtifactSchema;

  constructor(generatedTokens: number) {
    super();
    this.roles = [RoleSchema.parse({ id: "writer", sampler: { maxTokens: generatedTokens, temperature: 1 } })];
    this.verifier = new CompletionLengthVerifier(generatedTokens);
  }

  protected prompt(artifact: PromptArtifact): Messages {
    return [{ role: "user", content: artifact.prompt }];
  }

  protected override callOptions(): CallModelOptions {
    return { constraint: { kind: "grammar", gbnf: ENDLESS_GRAMMAR } };
  }
}
