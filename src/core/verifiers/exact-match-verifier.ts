import { InvalidInputError } from "../errors/index.js";
import type { Rollout } from "../schemas/rollout.js";
import { lastCompletion } from "./last-completion.js";
import type { ScoringContext, Verifier, VerifierOutput } from "./verifier.js";

export interface ExactMatchVerifierOptions {
  /** The role whose answer is checked. */
  roleId: string;
  /** The ground truth. Default: `rollout.artifacts.expected`. */
  expected?: (rollout: Rollout) => string;
  /** Parses the answer out of the completion. Default: the completion itself. */
  extractAnswer?: (completion: string) => string | undefined;
  /** Applied to both sides before comparing. Default: trim. */
  normalize?: (text: string) => string;
  /** Whether the normalised answer is the expected one (`answersMatch`: numbers as numbers). Default: equal text. */
  matches?: (answer: string, expected: string) => boolean;
  /** Rewards for a match and a miss. Default 1 and 0. */
  correctReward?: number;
  incorrectReward?: number;
}

/** Ground-truth checking: the role earns `correctReward` when its parsed answer equals the expected one. */
export class ExactMatchVerifier implements Verifier {
  constructor(private readonly options: ExactMatchVerifierOptions) {}

  async score(rollout: Rollout, _context: ScoringContext): Promise<VerifierOutput> {
    const { roleId } = this.options;
    const normalize = this.options.normalize ?? ((text: string) => text.trim());
    const expected = normalize(this.expectedOf(rollout));
    const completion = lastCompletion(rollout, roleId) ?? "";
    const extracted = (this.options.extractAnswer ?? ((text: string) => text))(completion);
    const answer = extracted === undefined ? null : normalize(extracted);
    const correct = answer !== null && (this.options.matches ?? ((given: string, wanted: string) => given === wanted))(answer, expected);
    return {
      rewards: { [roleId]: correct ? (this.options.correctReward ?? 1) : (this.options.incorrectReward ?? 0) },
      details: { expected, answer, correct },
    };
  }

  private expectedOf(rollout: Rollout): string {
    if (this.options.expected) return this.options.expected(rollout);
    const expected = rollout.artifacts["expected"];
    if (typeof expected !== "string") {
      throw new InvalidInputError(
        `rollout.artifacts.expected (rollout ${rollout.id})`,
        "a string set by the episode's finalize(), or an `expected` option on the verifier",
        expected,
      );
    }
    return expected;
  }
}
