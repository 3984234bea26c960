import { z } from "zod";
import { ChallengeClusterSchema } from "../challenges/challenge-cluster.js";

/** What the generator writes, through strict JSON: the three parts of a challenge and its output file. */
export const GeneratedChallengeSchema = z.strictObject({
  cluster: ChallengeClusterSchema,
  prompt: z.string().min(20, "a task statement of a sentence or more"),
  setup: z.string().min(10, "a program that writes the fixture files"),
  validator: z.string().min(10, "a program that checks the output file against the fixtures"),
  outputFile: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "a plain file name such as output.json"),
});
export type GeneratedChallenge = z.infer<typeof GeneratedChallengeSchema>;
