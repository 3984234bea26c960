import { createHash } from "node:crypto";
import { z } from "zod";
import { ChallengeClusterSchema } from "./challenge-cluster.js";
import { ChallengeTierSchema } from "./challenge-tier.js";

/** A plain file name in the working directory: no folders, no `..`, nothing absolute. */
const FILE_NAME = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "a plain file name such as output.json (letters, digits, . _ -; no folders)");

/**
 * One dream challenge: three JavaScript programs (CommonJS, run by Node 20)
 * that never start one another — the harness runs each and hands files between
 * them.
 */
export const ChallengeSchema = z.strictObject({
  /** Content hash of everything below (`challengeId`): the same challenge always has the same id. */
  id: z.string().regex(/^[0-9a-f]{16}$/, "16 lowercase hex digits from challengeId()"),
  cluster: ChallengeClusterSchema,
  tier: ChallengeTierSchema,
  /** What the solver is told, including any hard-mode twist. */
  prompt: z.string().min(1),
  /** Program source that writes the fixture files into its working directory. */
  setup: z.string().min(1),
  /** Program source that reads the fixtures and the solution's output file; exit 0 = pass. */
  validator: z.string().min(1),
  /** The file the solution writes and the validator reads. */
  outputFile: FILE_NAME,
  source: z.enum(["template", "journal", "generated"]),
});
export type Challenge = z.infer<typeof ChallengeSchema>;

/** The challenge's id: the first 16 hex digits of a SHA-256 over its content fields (id excluded). */
export function challengeId(content: Omit<Challenge, "id">): string {
  const fields = [content.cluster, content.tier, content.prompt, content.setup, content.validator, content.outputFile, content.source];
  // Length-prefixed so that moving text between fields changes the hash.
  const hash = createHash("sha256");
  for (const field of fields) hash.update(`${field.length}:${field}`);
  return hash.digest("hex").slice(0, 16);
}
