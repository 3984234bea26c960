import { createHash } from "node:crypto";
import { normalizeText } from "./text-similarity.js";

/** 16 hex digits identifying a proposal up to case, spacing and punctuation (the specification's exact-repeat check). */
export function proposalHash(proposal: string): string {
  return createHash("sha256").update(normalizeText(proposal)).digest("hex").slice(0, 16);
}
