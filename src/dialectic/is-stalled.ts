import type { DialecticSettings } from "./dialectic-settings.js";
import { SCORE_EPSILON } from "./detect-oscillation.js";

export type StallSettings = Pick<DialecticSettings, "oscillationWindow" | "improvementThreshold" | "approvalThreshold">;

/**
 * No score rose by `improvementThreshold` across the window (the latest
 * `oscillationWindow` scores), and the latest is still below the approval
 * threshold: more rounds are unlikely to help.
 */
export function isStalled(scores: readonly number[], settings: StallSettings): boolean {
  if (scores.length < settings.oscillationWindow) return false;
  const window = scores.slice(-settings.oscillationWindow);
  const latest = window[window.length - 1] as number;
  if (latest >= settings.approvalThreshold) return false;
  return window.slice(1).every((score, index) => score - (window[index] as number) < settings.improvementThreshold - SCORE_EPSILON);
}
