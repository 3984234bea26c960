import { isLessonDomain, LESSON_DOMAINS, type LessonDomain } from "./lesson-domains.js";
import type { Lesson, LessonCandidate } from "./lesson.js";
import { sharedTokenRun } from "./shared-token-run.js";

/** Consecutive tokens a lesson may share with its challenge before it counts as a copy (the seed's 6). */
export const GENERALIZATION_MIN_NGRAM = 6;

/** The challenge text a lesson must not copy. */
export interface GeneralizationSource {
  /** The challenge prompt the solver saw. */
  prompt: string;
  /** The setup program's source (writes the fixtures). */
  setup: string;
  /** The validator program's source. */
  validator: string;
  /** The challenge's hash, recorded as the lesson's sourceChallengeHash. */
  challengeHash: string;
}

/** Why the guard refused a lesson; one kind per rule, so the cycle can count them. */
export type GeneralizationRejectionKind =
  | "trigger-restates-prompt"
  | "pattern-copies-setup"
  | "pattern-copies-validator"
  | "empty-domains"
  | "off-taxonomy-domain";

export interface GeneralizationRejection {
  kind: GeneralizationRejectionKind;
  /** What was found: the shared tokens, or the domain outside the taxonomy. */
  detail: string;
}

export type GeneralizationVerdict =
  | { accepted: true; lesson: Lesson }
  | { accepted: false; rejection: GeneralizationRejection };

/**
 * The generalization guard: a lesson that restates its challenge or copies
 * its fixtures or validator has memorised one challenge, not learnt a skill,
 * and would only leak that challenge's answer into other prompts.
 */
export function checkGeneralization(
  candidate: LessonCandidate,
  source: GeneralizationSource,
  minNgram: number = GENERALIZATION_MIN_NGRAM,
): GeneralizationVerdict {
  const reject = (kind: GeneralizationRejectionKind, detail: string): GeneralizationVerdict => ({
    accepted: false,
    rejection: { kind, detail },
  });
  const restated = sharedTokenRun(candidate.trigger, source.prompt, minNgram);
  if (restated !== null) return reject("trigger-restates-prompt", restated);
  const fromSetup = sharedTokenRun(candidate.correctPattern, source.setup, minNgram);
  if (fromSetup !== null) return reject("pattern-copies-setup", fromSetup);
  const fromValidator = sharedTokenRun(candidate.correctPattern, source.validator, minNgram);
  if (fromValidator !== null) return reject("pattern-copies-validator", fromValidator);
  if (candidate.domains.length === 0) return reject("empty-domains", `expected one or more of ${LESSON_DOMAINS.join(", ")}`);
  const offTaxonomy = candidate.domains.find((domain) => !isLessonDomain(domain));
  if (offTaxonomy !== undefined) return reject("off-taxonomy-domain", `${JSON.stringify(offTaxonomy)} is not one of ${LESSON_DOMAINS.join(", ")}`);
  const domains = [...new Set(candidate.domains)] as LessonDomain[];
  return {
    accepted: true,
    lesson: {
      trigger: candidate.trigger,
      antiPattern: candidate.antiPattern,
      correctPattern: candidate.correctPattern,
      domains,
      confidence: candidate.confidence,
      sourceChallengeHash: source.challengeHash,
    },
  };
}
