import { z } from "zod";
import type { EnvironmentEvaluation } from "./environment.js";
import { EnvironmentModuleError } from "./errors/environment-module-error.js";

/** What `Environment.evaluate` returns; other keys (arithmetic's `correct`, `byCluster`) are allowed and left out of the run's logs. */
const SHARE = "a share from 0 to 1 (a percentage divided by 100)";
const EnvironmentEvaluationSchema = z.object({
  heldOutAccuracy: z.number({ error: SHARE }).min(0, SHARE).max(1, SHARE),
  n: z.number({ error: "an integer ≥ 0" }).int("an integer ≥ 0").min(0, "an integer ≥ 0"),
  figures: z.record(z.string(), z.number({ error: "a finite number" })).optional(),
});

/**
 * The held-out evaluation an environment's `evaluate()` returned, checked
 * before the loop logs it: anything but `{heldOutAccuracy, n}` (a share from 0 to 1
 * and a count) is an EnvironmentModuleError naming `source`, the keys it
 * returned and the field at fault — never a `NaN%` line.
 */
export function parseEnvironmentEvaluation(returned: unknown, source: string): EnvironmentEvaluation {
  const parsed = EnvironmentEvaluationSchema.safeParse(returned);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const isObject = typeof returned === "object" && returned !== null && !Array.isArray(returned);
  const shown = isObject ? `{${Object.keys(returned).join(", ")}}` : (JSON.stringify(returned) ?? String(returned));
  const field = issue?.path.map(String).join(".") ?? "";
  const received = isObject && field !== "" ? (returned as Record<string, unknown>)[field] : returned;
  const problem = field === "" ? "expected an object" : `"${field}": ${received === undefined ? "missing" : `got ${JSON.stringify(received)}`}; expected ${issue?.message ?? "a valid value"}`;
  // The figure was once called accuracy: an environment written then gets the one-word fix.
  const rename = field === "heldOutAccuracy" && received === undefined && isObject && "accuracy" in returned ? " — rename accuracy to heldOutAccuracy" : "";
  throw new EnvironmentModuleError(
    source,
    `evaluate() returned ${shown}: expected {heldOutAccuracy, n} — heldOutAccuracy, the share of held-out problems solved, and n, how many there were; ${problem}${rename}`,
  );
}
