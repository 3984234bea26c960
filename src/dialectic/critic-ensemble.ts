import { z } from "zod";
import { InvalidInputError } from "../core/errors/index.js";
import type { Critic, StructuredAsk } from "./critic.js";
import { CritiqueSchema } from "./critique.js";
import { textSimilarity } from "./text-similarity.js";

/** The ensemble's critique: a Critique whose lists are the union of its members', so they are not bounded. */
export const AggregateCritiqueSchema = z.object({
  approved: z.boolean(),
  score: z.number().min(0).max(1),
  feedback: z.string(),
  issues: z.array(z.string()),
  suggestions: z.array(z.string()),
});
export type AggregateCritique = z.infer<typeof AggregateCritiqueSchema>;

/** One member's critique, named by its critic's id. */
export const MemberCritiqueSchema = CritiqueSchema.extend({ critic: z.string().min(1) });
export type MemberCritique = z.infer<typeof MemberCritiqueSchema>;

/** `majority`: approved when more than half the critics approve; `unanimous`: when all do. */
export const ApprovalRuleSchema = z.enum(["majority", "unanimous"]);
export type ApprovalRule = z.infer<typeof ApprovalRuleSchema>;

export interface EnsembleVerdict {
  critique: AggregateCritique;
  members: MemberCritique[];
  /** Twice the standard deviation of the members' scores: 0 when they agree, 1 when half say 0 and half say 1. */
  disagreement: number;
}

export interface AggregateOptions {
  /** Default `majority`. */
  approval?: ApprovalRule;
  /** Issues (and suggestions) at least this similar are merged in the union. Default 0.8. */
  similarityThreshold?: number;
}

/**
 * Several critics judge each proposal: the score is their mean, the issues
 * and suggestions their union, and the spread of their scores is reported as
 * the disagreement. One critic is an ensemble of one.
 */
export class CriticEnsemble {
  constructor(
    readonly critics: readonly Critic[],
    private readonly options: AggregateOptions = {},
  ) {
    if (critics.length === 0) throw new InvalidInputError("critics", "at least one critic", []);
    const ids = critics.map((critic) => critic.id);
    const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
    if (repeated !== undefined) throw new InvalidInputError("critics", "critics with distinct ids (give each an `id`)", repeated);
  }

  async evaluate(ask: StructuredAsk, task: string, proposal: string): Promise<EnsembleVerdict> {
    const members: MemberCritique[] = [];
    // One after another: the judge's seeds are drawn in critic order, whichever model call would finish first.
    for (const critic of this.critics) members.push({ critic: critic.id, ...(await critic.evaluate(ask, task, proposal)) });
    return aggregateCritiques(members, this.options);
  }
}

export function aggregateCritiques(members: readonly MemberCritique[], options: AggregateOptions = {}): EnsembleVerdict {
  if (members.length === 0) throw new InvalidInputError("members", "at least one critique", []);
  const threshold = options.similarityThreshold ?? 0.8;
  const scores = members.map((member) => member.score);
  const score = mean(scores);
  const approvals = members.filter((member) => member.approved).length;
  const approved = (options.approval ?? "majority") === "unanimous" ? approvals === members.length : approvals * 2 > members.length;
  const feedback =
    members.length === 1
      ? (members[0] as MemberCritique).feedback
      : members.filter((member) => member.feedback !== "").map((member) => `${member.critic}: ${member.feedback}`).join(" | ");
  const spread = Math.sqrt(mean(scores.map((value) => (value - score) ** 2)));
  return {
    critique: {
      approved,
      score,
      feedback,
      issues: union(members.map((member) => member.issues), threshold),
      suggestions: union(members.map((member) => member.suggestions), threshold),
    },
    members: [...members],
    disagreement: Math.min(1, 2 * spread),
  };
}

function mean(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0) / values.length;
}

/** Every distinct item, near-duplicates merged into their first wording, in order of appearance. */
function union(lists: ReadonlyArray<readonly string[]>, threshold: number): string[] {
  const items: string[] = [];
  for (const item of lists.flat()) {
    if (!items.some((kept) => textSimilarity(kept, item) >= threshold)) items.push(item);
  }
  return items;
}
