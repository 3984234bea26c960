import type { GenerationRequest } from "../core/inference-client.js";
import type { ScriptedRule } from "../inference/scripted-inference-client.js";
import type { Critique } from "./critique.js";

interface DemoVerdict {
  critique: Critique;
  /** Recognises a proposal of this approach. */
  approach: string;
}

const VERDICTS: readonly DemoVerdict[] = [
  {
    approach: "Approach A",
    critique: {
      approved: false,
      score: 0.55,
      feedback: "Thorough, but every rule is inline and hard to follow.",
      issues: ["too complex to maintain", "rules are hard to test"],
      suggestions: ["split the rules into small functions"],
    },
  },
  {
    approach: "Approach B",
    critique: {
      approved: false,
      score: 0.62,
      feedback: "Easy to read, but it ignores the rare cases.",
      issues: ["misses the rare cases", "too simple for the task"],
      suggestions: ["cover the rare cases the task implies"],
    },
  },
  {
    approach: "Approach C",
    critique: {
      approved: true,
      score: 0.91,
      feedback: "Clear core, every rare case covered by its own tested rule.",
      issues: [],
      suggestions: ["document each rule"],
    },
  },
];

/** How a focused critic of the demo shifts the score, so an ensemble disagrees a little. */
const FOCUS_OFFSETS: Readonly<Record<string, number>> = { correctness: -0.02, completeness: 0.02, style: 0.01, efficiency: -0.01, robustness: 0 };

function lastContent(request: GenerationRequest): string {
  return request.messages[request.messages.length - 1]?.content ?? "";
}

function proposalFor(task: string, prompt: string, temperature: number): string {
  if (prompt.includes("CONSTRAINTS:")) {
    return `Approach C for "${task}": a minimal core for the common case, plus one explicit, tested rule for each rare case the review named.`;
  }
  const previous = /YOUR PREVIOUS PROPOSAL:\n([^\n]*)/.exec(prompt)?.[1];
  // Without feedback the proposer is stuck between two approaches; a higher temperature only rewords the second.
  if (previous === undefined || previous.startsWith("Approach B")) {
    return `Approach A for "${task}": handle every case in one comprehensive pass, with all the rules written inline.`;
  }
  return temperature > 0.75
    ? `Approach B for "${task}": handle the common case with a minimal solution and leave the rarer cases out for now.`
    : `Approach B for "${task}": handle the common case with a minimal solution and leave the rare cases out.`;
}

function critiqueText(critique: Critique, asJson: boolean): string {
  if (asJson) return JSON.stringify(critique);
  const list = (items: readonly string[]) => (items.length === 0 ? "None" : items.join(", "));
  return [
    `APPROVED: ${critique.approved ? "yes" : "no"}`,
    `SCORE: ${critique.score.toFixed(2)}`,
    `FEEDBACK: ${critique.feedback}`,
    `ISSUES: ${list(critique.issues)}`,
    `SUGGESTIONS: ${list(critique.suggestions)}`,
  ].join("\n");
}

/**
 * Scripted players for a dry run of `selfplay dialectic`: the proposer
 * flip-flops between a comprehensive and a minimal approach, a raised
 * temperature only rewords the minimal one (a near-duplicate), and injected
 * constraints lead it to a third approach the critics approve. Critics reply
 * in JSON when the call is constrained to the schema and in the
 * specification's plain-text format otherwise, so both paths are exercised.
 */
export const scriptedDialecticRules: readonly ScriptedRule[] = [
  {
    when: /^system: You are a proposal generator/,
    reply: (request) => {
      const prompt = lastContent(request);
      const task = /TASK: ([^\n]*)/.exec(prompt)?.[1] ?? "the task";
      return proposalFor(task, prompt, request.sampler.temperature);
    },
  },
  {
    when: /^system: You are a strict but fair critic/,
    reply: (request) => {
      const proposal = lastContent(request).split("PROPOSAL TO EVALUATE:\n")[1] ?? "";
      const verdict = VERDICTS.find((candidate) => proposal.startsWith(candidate.approach));
      if (!verdict) return "I cannot judge this.";
      const focus = /focused on (\w+)/.exec(request.messages[0]?.content ?? "")?.[1] ?? "";
      const score = Math.min(1, Math.max(0, verdict.critique.score + (FOCUS_OFFSETS[focus] ?? 0)));
      return critiqueText({ ...verdict.critique, score: Math.round(score * 100) / 100 }, request.constraint !== null);
    },
  },
];
