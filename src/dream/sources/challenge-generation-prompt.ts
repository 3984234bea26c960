import type { Messages } from "../../core/schemas/message.js";
import { ChallengeClusterSchema } from "../challenges/challenge-cluster.js";

/** What the generator is asked for. */
export interface ChallengeGenerationInput {
  /** Saturated clusters: the diversity injection forbids them. */
  saturated: readonly string[];
  /** A journal variation brief (journalVariationPrompt), when the seed is a `vary` journal seed. */
  journalBrief?: string;
  /** The gates' rejection message of the previous try, for targeted regeneration. */
  feedback?: string;
}

const INSTRUCTIONS = [
  "You write one self-checking JavaScript (Node 20, CommonJS, no npm packages) programming challenge.",
  "Answer with a single JSON object and nothing else:",
  '{"cluster": string, "prompt": string, "setup": string, "validator": string, "outputFile": string}',
  "- setup: a program that writes the fixture files (fixed data, no randomness) into the current directory.",
  "- validator: a program that reads the fixture files, computes the expected answer into a variable named expected, reads outputFile and exits 0 only when it matches. No Math.random, no clock.",
  "- prompt: what a solver must do: which files to read, what to compute, what to write to outputFile.",
].join("\n");

/**
 * The generator's conversation, with the seed's diversity injection: pick a
 * cluster that is not saturated, and never another data-analysis group-by.
 */
export function challengeGenerationPrompt(input: ChallengeGenerationInput): Messages {
  const open = ChallengeClusterSchema.options.filter((cluster) => !input.saturated.includes(cluster));
  const diversity = [
    `DIVERSITY REQUIREMENT: choose cluster from {${(open.length > 0 ? open : ChallengeClusterSchema.options).join(", ")}}.`,
    input.saturated.length > 0 ? `Do NOT write a ${input.saturated.join(" / ")} challenge: those are already mastered.` : "",
    "Do NOT write another CSV group-by-and-sum data analysis task.",
  ].filter((line) => line !== "");
  const parts = [diversity.join("\n")];
  if (input.journalBrief !== undefined) parts.push(input.journalBrief);
  if (input.feedback !== undefined) parts.push(`Your previous challenge was rejected: ${input.feedback}\nFix that.`);
  return [
    { role: "system", content: INSTRUCTIONS },
    { role: "user", content: parts.join("\n\n") },
  ];
}
