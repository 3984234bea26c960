import type { JsonObject } from "../../core/json.js";
import { InvalidInputError } from "../../core/errors/index.js";
import { RewardFunctionError } from "./errors/index.js";

/**
 * A plain reward function, as in TRL's `reward_funcs` and verifiers' Rubric:
 * the completion's text and its dataset row in, a number out, or null to
 * abstain (the function has nothing to say about this row).
 */
export type RewardFunction<Item extends JsonObject = JsonObject> = (completion: string, item: Item) => number | null;

/** A reward function with its name (on the step line and in metrics.jsonl) and its weight in the sum. */
export interface WeightedReward<Item extends JsonObject = JsonObject> {
  /** Default: the function's own name (`fn.name`). */
  name?: string;
  /** Its weight in the rubric's sum. Default 1. */
  weight?: number;
  fn: RewardFunction<Item>;
}

/** What `rewards` takes: plain functions (weight 1, named by `fn.name`) or `{ name, weight, fn }`. */
export type RewardInput<Item extends JsonObject = JsonObject> = RewardFunction<Item> | WeightedReward<Item>;

/** A reward function with its name and weight settled. */
export interface RubricEntry {
  readonly name: string;
  readonly weight: number;
  readonly fn: RewardFunction;
}

/** What the rubric made of one completion: the weighted sum, and every function's score (null: it abstained). */
export interface RubricScore {
  reward: number;
  scores: Record<string, number | null>;
}

/** The rubric of `rewards`: names settled and unique, weights finite. */
export function rubricOf(rewards: readonly RewardInput[]): RubricEntry[] {
  const entries = rewards.map((reward, index): RubricEntry => {
    const entry = typeof reward === "function" ? { fn: reward } : reward;
    const name = entry.name ?? entry.fn.name;
    if (typeof entry.fn !== "function") throw new InvalidInputError(`environment.rewards[${index}].fn`, "a function (completion, item) => number | null", entry.fn);
    if (name === "") throw new InvalidInputError(`environment.rewards[${index}].name`, "a name: give { name, fn } or a named function", name);
    const weight = entry.weight ?? 1;
    if (!Number.isFinite(weight)) throw new InvalidInputError(`environment.rewards[${index}].weight`, "a finite number", weight);
    return { name, weight, fn: entry.fn as RewardFunction };
  });
  const duplicate = entries.find((entry, index) => entries.findIndex((other) => other.name === entry.name) !== index);
  if (duplicate) throw new InvalidInputError("environment.rewards", "reward functions with distinct names (they name the step line's columns)", duplicate.name);
  if (entries.length === 0) throw new InvalidInputError("environment.rewards", "at least one reward function", []);
  return entries;
}

/**
 * Scores a completion: Σ weight · score over the functions that did not
 * abstain (TRL sums its reward functions ignoring None; all abstaining is 0).
 * A function that throws or returns anything but a finite number or null is
 * a RewardFunctionError naming it.
 */
export function scoreRubric(rubric: readonly RubricEntry[], completion: string, item: JsonObject): RubricScore {
  const scores: Record<string, number | null> = {};
  let reward = 0;
  for (const { name, weight, fn } of rubric) {
    let score: unknown;
    try {
      score = fn(completion, item);
    } catch (error) {
      throw new RewardFunctionError(name, `threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (score !== null && (typeof score !== "number" || !Number.isFinite(score))) {
      throw new RewardFunctionError(name, `returned ${typeof score === "number" ? String(score) : typeof score}; return a finite number, or null to abstain`);
    }
    scores[name] = score;
    if (score !== null) reward += weight * score;
  }
  return { reward, scores };
}
