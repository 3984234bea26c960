import { Episode } from "../../../src/core/episodes/episode.js";
import type { EpisodeContext } from "../../../src/core/episodes/episode-context.js";
import type { JsonObject } from "../../../src/core/json.js";
import type { Rollout } from "../../../src/core/schemas/rollout.js";
import type { Verifier } from "../../../src/core/verifiers/verifier.js";
import type { ScriptedRule } from "../../../src/inference/scripted-inference-client.js";
import { RiddleArtifactSchema, type RiddleArtifact } from "../../../src/riddles/riddle-artifact.js";
import type { RiddleConfig } from "../../../src/riddles/riddle-config.js";
import type { RiddleEpisodeHooks } from "../../../src/riddles/riddle-episode-hooks.js";
import type { RiddleEpisodeOutcome, SolverRun } from "../../../src/riddles/riddle-outcome.js";
import { riddleSimilarity } from "../../../src/riddles/riddle-similarity.js";

const PROFILES = ["careful", "quick", "checks twice"];

/**
 * A tiny stand-in for the riddle episode: the riddler writes `a+b=` (or junk,
 * which the code critic rejects), each solver answers a number; it calls the
 * hooks as the real one does and returns a valid RiddleEpisodeOutcome.
 */
export class ScriptedRiddleEpisode extends Episode<RiddleArtifact, RiddleEpisodeOutcome> {
  readonly type = "scripted-riddle";
  readonly roles = [{ id: "riddler", systemPrompt: "Write a riddle.", sampler: {}, trainable: true }, { id: "solver", systemPrompt: "Solve.", sampler: {}, trainable: true }];
  readonly verifier: Verifier = { score: async (rollout: Rollout) => ({ rewards: rewardsOf(rollout) }) };
  protected readonly artifactSchema = RiddleArtifactSchema;

  constructor(
    private readonly config: RiddleConfig,
    private readonly hooks: RiddleEpisodeHooks,
  ) {
    super();
  }

  async rollout(context: EpisodeContext, artifact: RiddleArtifact): Promise<RiddleEpisodeOutcome> {
    const attempts: RiddleEpisodeOutcome["attempts"] = [];
    const tokensByRole: Record<string, number> = {};
    let riddle: RiddleEpisodeOutcome["riddle"] = null;
    let answer = 0;
    for (let attempt = 0; attempt <= this.config.validityRetries && riddle === null; attempt++) {
      const response = await context.callModel("riddler", [{ role: "user", content: `memory: ${artifact.riddlerMemory.length} chars; attempt ${attempt}` }]);
      tokensByRole["riddler"] = (tokensByRole["riddler"] ?? 0) + response.step.completionTokenIds.length;
      const match = /^(\d+)\+(\d+)=$/.exec(response.text.trim());
      if (match) {
        answer = Number(match[1]) + Number(match[2]);
        riddle = { riddle: response.text.trim(), solution: String(answer), solutionRationale: "", tags: ["addition", "arithmetic"], difficultyGuessPct: 50, gradingRules: "same number" };
      }
      attempts.push({ riddle, raw: response.text, valid: riddle !== null, notes: riddle === null ? "not a+b=" : "" });
    }
    if (riddle === null) {
      return { domain: "arithmetic", episodeIndex: artifact.episodeIndex, attempts, riddle, solverRuns: [], solved: 0, solveRate: null, earlyStop: { stopped: false, side: null, afterSolvers: 0 }, solverCallsSaved: 0, partnersUsed: 0, duplicate: { similarity: 0, nearDuplicate: false, of: null }, riddlerReward: 0, statusSummaries: [], tokensByRole };
    }
    const runs: SolverRun[] = [];
    let partners = 0;
    for (let index = 0; index < this.config.solvers; index++) {
      if (index > 0) await this.hooks.betweenSolvers?.({ episodeIndex: artifact.episodeIndex, riddle: riddle.riddle, solversRun: index, solversPlanned: this.config.solvers, solvedSoFar: runs.filter((run) => run.correct).length, lastRun: runs[index - 1] ?? null });
      const profile = PROFILES[index % PROFILES.length] as string;
      const response = await context.callModel("solver", [{ role: "user", content: `${profile}: ${riddle.riddle}` }]);
      tokensByRole["solver"] = (tokensByRole["solver"] ?? 0) + response.step.completionTokenIds.length;
      const askedPartner = response.text.includes("help") && partners < this.config.maxTotalPartners;
      if (askedPartner) partners += 1;
      const finalAnswer = response.text.replace("help", "").trim();
      const run: SolverRun = { solverId: `s${index}`, profile, wave: Math.floor(index / this.config.waveSize), answer: { finalAnswer, confidence: 0.5, checks: [], helpRequest: { needed: askedPartner, whatITried: "", whereIAmStuck: "" } }, correct: finalAnswer === String(answer), gradeNotes: "", askedPartner, partnerSummary: askedPartner ? "added again" : "" };
      runs.push(run);
      this.hooks.onSolverGraded?.({ episodeIndex: artifact.episodeIndex, riddle: riddle.riddle, solversRun: runs.length, solversPlanned: this.config.solvers, solvedSoFar: runs.filter((entry) => entry.correct).length, lastRun: run });
    }
    const solved = runs.filter((run) => run.correct).length;
    const solveRate = solved / runs.length;
    const similarities = artifact.recentRiddles.map((recent) => ({ recent, similarity: riddleSimilarity(recent, riddle.riddle) }));
    const closest = similarities.reduce<{ recent: string | null; similarity: number }>((best, entry) => (entry.similarity > best.similarity ? entry : best), { recent: null, similarity: 0 });
    const nearDuplicate = closest.similarity >= this.config.duplicates.threshold;
    const gaussian = Math.exp(-0.5 * ((solveRate - this.config.reward.targetSolveRate) / this.config.reward.sigma) ** 2);
    return {
      domain: "arithmetic",
      episodeIndex: artifact.episodeIndex,
      attempts,
      riddle,
      solverRuns: runs,
      solved,
      solveRate,
      earlyStop: { stopped: false, side: null, afterSolvers: runs.length },
      solverCallsSaved: 0,
      partnersUsed: partners,
      duplicate: { similarity: closest.similarity, nearDuplicate, of: nearDuplicate ? closest.recent : null },
      riddlerReward: gaussian - (nearDuplicate ? this.config.duplicates.penalty : 0),
      statusSummaries: [],
      tokensByRole,
    };
  }

  finalize(state: RiddleEpisodeOutcome): JsonObject {
    return state as unknown as JsonObject;
  }
}

function rewardsOf(rollout: Rollout): Record<string, number> {
  const outcome = rollout.artifacts as unknown as RiddleEpisodeOutcome;
  const rewards: Record<string, number> = { riddler: outcome.riddlerReward };
  if (outcome.solverRuns.length > 0) rewards["solver"] = outcome.solved / outcome.solverRuns.length;
  return rewards;
}

/**
 * Replies for the stand-in: the riddler writes `a+b=` with one or two-digit
 * operands (one reply in five is junk the critic rejects); a solver answers
 * right about half the time, sometimes asking for help; inbox questions get a
 * fixed answer.
 */
export const scriptedRiddleRules: readonly ScriptedRule[] = [
  { when: /You are the actor orchestrating/, reply: "Solvers that check twice do best." },
  {
    when: /^system: Write a riddle/,
    reply: (_request, random) => (random.integer(5) === 0 ? "riddle?" : `${random.integer(random.next() < 0.5 ? 10 : 100)}+${random.integer(10)}=`),
  },
  {
    when: /^system: Solve/,
    reply: (request, random) => {
      const match = /(\d+)\+(\d+)=/.exec(request.messages.at(-1)?.content ?? "");
      const sum = Number(match?.[1]) + Number(match?.[2]);
      return `${random.next() < 0.5 ? sum : sum + 1}${random.integer(4) === 0 ? " help" : ""}`;
    },
  },
];
