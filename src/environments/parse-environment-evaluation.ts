import { z } from "zod";
import type { EnvironmentEvaluation } from "./environment.js";
import { EnvironmentModuleError } from "./errors/environment-module-error.js";

/** What `Environment.evaluate` returns; other keys (arithmetic's `correct`, `byCluster`) are allowed and left out of the run's logs. */
const EnvironmentEvaluationSchema = z.object({
  accuracy: z.number().min(0).max(1),
  n: z.number().int().min(0),
});

/**
 * The held-out evaluation an environment's `evaluate()` returned, checked
 * before the loop logs it: anything but `{accuracy, n}` (a share from 0 to 1
 * and a count) is an EnvironmentModuleError naming `source`, the keys it
 * returned and the field at fault — never a `NaN%` line.
 */
export function parseEnvironmentEvaluation(returned: unknown, source: string): EnvironmentEvaluation {
  const parsed = EnvironmentEvaluationSchema.safeParse(returned);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.map(String).join(".") || "(the value)";
  const keys = typeof returned === "object" && returned !== null && !Array.isArray(returned) ? `{${Object.keys(returned).join(", ")}}` : JSON.stringify(returned) ?? String(returned);
  throw new EnvironmentModuleError(
    source,
    `evaluate() returned ${keys}: expected {accuracy, n} — accuracy, the share solved from 0 to 1, and n, how many held-out problems (the run logs accuracy as heldOutAccuracy); ` +
      `"${field}": ${issue?.message ?? "invalid"}`,
  );
}
