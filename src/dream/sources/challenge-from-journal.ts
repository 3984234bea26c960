import { challengeId, type Challenge } from "../challenges/challenge.js";
import { ChallengeClusterSchema } from "../challenges/challenge-cluster.js";
import type { ChallengeTier } from "../challenges/challenge-tier.js";
import { fixtureFilesWritten } from "../gates/fixture-files-written.js";
import type { JournalSeed } from "../journal/mine-journal.js";

const FILE_LITERAL = /["'`]([A-Za-z0-9][A-Za-z0-9._-]{0,99}\.[A-Za-z0-9]{1,8})["'`]/g;

/**
 * The challenge of a `retry` journal seed, played again as it was. The journal
 * keeps prompt, setup and validator but not the output file's name, so it is
 * read back from the validator: the first file name it mentions that the
 * setup does not write. Null when the cluster is unknown or no such name is
 * found (the caller falls back to another source).
 */
export function challengeFromJournal(seed: JournalSeed, tier: ChallengeTier): Challenge | null {
  const cluster = ChallengeClusterSchema.safeParse(seed.run.cluster);
  if (!cluster.success) return null;
  const { prompt, setup, validator } = seed.run.challenge;
  const fixtures = new Set(fixtureFilesWritten(setup));
  const outputFile = [...validator.matchAll(FILE_LITERAL)].map((match) => match[1] as string).find((name) => !fixtures.has(name));
  if (outputFile === undefined) return null;
  const content = { cluster: cluster.data, tier, prompt, setup, validator, outputFile, source: "journal" as const };
  return { id: challengeId(content), ...content };
}
