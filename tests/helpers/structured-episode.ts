import { z } from "zod";
import type { EpisodeContext } from "../../src/core/episodes/episode-context.js";
import { Episode } from "../../src/core/episodes/episode.js";
import type { JsonObject } from "../../src/core/json.js";
import type { LogitBias } from "../../src/core/schemas/constraint.js";
import { RoleSchema, type Role } from "../../src/core/schemas/role.js";
import type { Verifier } from "../../src/core/verifiers/verifier.js";

const TopicSchema = z.object({ topic: z.string() });
type Topic = z.infer<typeof TopicSchema>;

export interface StructuredEpisodeOptions<Schema extends z.ZodType> {
  schema: Schema;
  /** Schema-bound calls per rollout. */
  calls?: number;
  maxAttempts?: number;
  logitBias?: LogitBias;
}

/**
 * An episode whose `writer` role answers with values of a schema through
 * `callModelForObject`; the reward is the share of calls that validated.
 */
export class StructuredEpisode<Schema extends z.ZodType> extends Episode<Topic, { values: unknown[]; failures: number }> {
  readonly type = "structured";
  readonly roles: readonly Role[] = [RoleSchema.parse({ id: "writer" })];
  protected readonly artifactSchema = TopicSchema;
  readonly verifier: Verifier = {
    score: async (rollout) => {
      const values = rollout.artifacts.values as unknown[];
      return { rewards: { writer: values.length / (values.length + (rollout.artifacts.failures as number)) } };
    },
  };

  constructor(private readonly options: StructuredEpisodeOptions<Schema>) {
    super();
  }

  async rollout(context: EpisodeContext, artifact: Topic) {
    const values: unknown[] = [];
    let failures = 0;
    for (let call = 0; call < (this.options.calls ?? 1); call++) {
      try {
        const { value } = await context.callModelForObject("writer", [{ role: "user", content: `Review: ${artifact.topic}` }], this.options.schema, {
          ...(this.options.maxAttempts && { maxAttempts: this.options.maxAttempts }),
          ...(this.options.logitBias && { logitBias: this.options.logitBias }),
        });
        values.push(value);
      } catch {
        failures++;
      }
    }
    return { values, failures };
  }

  finalize(state: { values: unknown[]; failures: number }): JsonObject {
    return { values: state.values as JsonObject[], failures: state.failures };
  }
}
