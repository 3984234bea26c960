import type { JournalSeed } from "./mine-journal.js";

/** The label a journal-mined challenge's hint starts with, so the cycle log can attribute its source. */
export const JOURNAL_SEED_LABEL = "JOURNAL SEED";

/**
 * What the challenge generator is told for a `vary` seed: the failed
 * challenge and every way it was failed, and to write a different challenge
 * on the same skill (not the same fixtures), so the solver meets the
 * weakness again without replaying a challenge it cannot pass as written.
 */
export function journalVariationPrompt(seed: JournalSeed): string {
  const errors = seed.errorSummaries.map((summary, index) => `${index + 1}. ${summary}`).join("\n");
  return [
    `${JOURNAL_SEED_LABEL} (${seed.mode}, cluster ${seed.run.cluster}, failed ${seed.failures} time(s)):`,
    "The solver failed this challenge:",
    seed.run.challenge.prompt,
    "Its errors, oldest first:",
    errors,
    "Write a NEW challenge in the same cluster that exercises the same skill with different fixture data and a different output format.",
  ].join("\n");
}
