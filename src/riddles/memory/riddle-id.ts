import { createHash } from "node:crypto";
import { normalizeRiddle } from "../riddle-similarity.js";

/**
 * A riddle's short stable id: the first 12 hex digits of the SHA-256 of its
 * normalised text, so the same riddle reworded only in case or spacing keeps its id.
 */
export function riddleId(riddle: string): string {
  return createHash("sha256").update(normalizeRiddle(riddle)).digest("hex").slice(0, 12);
}
