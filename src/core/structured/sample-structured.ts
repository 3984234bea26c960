import type { z } from "zod";
import { StructuredOutputError } from "../errors/index.js";
import { extractJson } from "./extract-json.js";
import type { StructuredOutputStats } from "./structured-output-stats.js";

export interface SampleStructuredOptions<Schema extends z.ZodType, Sample extends { text: string }> {
  schema: Schema;
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Draws one output; `attempt` counts from 0. Each call must sample afresh (a new seed). */
  sample: (attempt: number) => Promise<Sample>;
  /** Turns text into the value to validate. Default: `extractJson`. */
  parse?: (text: string) => unknown;
  /** Told of every attempt, valid or not (to flag the Step it recorded, say). */
  onAttempt?: (sample: Sample, attempt: number, valid: boolean) => void;
  /** Counters this call adds to. */
  stats: StructuredOutputStats;
}

export interface StructuredSample<Value, Sample> {
  value: Value;
  /** The sample that validated. */
  sample: Sample;
  /** Attempts it took, the valid one included. */
  attempts: number;
}

/**
 * Samples until an output parses and validates against the schema, within a
 * budget. Resampling keeps the prompt unchanged so every attempt is a sample
 * of the same policy on the same input.
 */
export async function sampleStructured<Schema extends z.ZodType, Sample extends { text: string }>(
  options: SampleStructuredOptions<Schema, Sample>,
): Promise<StructuredSample<z.output<Schema>, Sample>> {
  const parse = options.parse ?? extractJson;
  options.stats.calls++;
  let problem = "no attempt was made";
  let lastText = "";
  for (let attempt = 0; attempt < options.maxAttempts; attempt++) {
    if (attempt > 0) options.stats.resamples++;
    const sample = await options.sample(attempt);
    lastText = sample.text;
    const checked = validate(sample.text, parse, options.schema);
    options.onAttempt?.(sample, attempt, checked.success);
    if (checked.success) {
      if (attempt === 0) options.stats.firstTryValid++;
      return { value: checked.value, sample, attempts: attempt + 1 };
    }
    problem = checked.problem;
  }
  options.stats.failures++;
  throw new StructuredOutputError(options.maxAttempts, lastText, problem);
}

type Checked<Value> = { success: true; value: Value } | { success: false; problem: string };

function validate<Schema extends z.ZodType>(text: string, parse: (text: string) => unknown, schema: Schema): Checked<z.output<Schema>> {
  let candidate: unknown;
  try {
    candidate = parse(text);
  } catch (error) {
    return { success: false, problem: error instanceof Error ? error.message : String(error) };
  }
  const parsed = schema.safeParse(candidate);
  if (parsed.success) return { success: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  return { success: false, problem: `${issue?.path.map(String).join(".") || "(root)"}: ${issue?.message ?? "invalid"}` };
}
