import { SingleTurnEpisode, type SingleTurnState } from "../../core/episodes/single-turn-episode.js";
import { JsonObjectSchema, type JsonObject } from "../../core/json.js";
import type { Messages } from "../../core/schemas/message.js";
import type { Rollout } from "../../core/schemas/rollout.js";
import { RoleSchema, type Role } from "../../core/schemas/role.js";
import { lastCompletion } from "../../core/verifiers/last-completion.js";
import type { ScoringContext, Verifier, VerifierOutput } from "../../core/verifiers/verifier.js";
import type { DatasetHarness } from "./dataset-harness.js";
import { scoreRubric, type RubricEntry } from "./dataset-rubric.js";

/** The role that answers a dataset's prompts. */
export const DATASET_ROLE = "student";

/** Scores the student's completion with the rubric: the weighted sum as its reward, each function's score in the details. */
export class RubricVerifier implements Verifier {
  constructor(private readonly rubric: readonly RubricEntry[]) {}

  async score(rollout: Rollout, _context: ScoringContext): Promise<VerifierOutput> {
    const { reward, scores } = scoreRubric(this.rubric, lastCompletion(rollout, DATASET_ROLE) ?? "", rollout.artifact as JsonObject);
    return { rewards: { [DATASET_ROLE]: reward }, details: { scores } };
  }
}

/** One dataset row, its prompt, one completion by `student`, scored by the rubric. */
export class DatasetEpisode extends SingleTurnEpisode<JsonObject> {
  readonly type = "dataset";
  readonly roles: readonly Role[];
  readonly verifier: RubricVerifier;
  protected readonly roleId = DATASET_ROLE;
  protected readonly artifactSchema = JsonObjectSchema;

  constructor(
    private readonly harness: DatasetHarness,
    maxTokens: number,
    temperature?: number,
  ) {
    super();
    this.roles = [RoleSchema.parse({ id: DATASET_ROLE, sampler: { maxTokens, ...(temperature !== undefined && { temperature }) } })];
    this.verifier = new RubricVerifier(harness.rubric);
  }

  // As a message: a chat model gets it in its template, the bundled base (no template) as a `user:` line.
  protected prompt(item: JsonObject): Messages {
    return this.harness.prompt(item);
  }

  /** The completion as `answer`, and the row's ground truth, when the harness has one, as `expected` (what `export --format verl` reads). */
  override finalize(state: SingleTurnState, item: JsonObject): JsonObject {
    const expected = this.harness.expected?.(item);
    return { answer: state.response.text, ...(expected !== undefined && { expected }) };
  }
}
