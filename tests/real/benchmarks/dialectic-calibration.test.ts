import { describe, expect, it } from "vitest";
import { runDialecticLoops, summariseLoops } from "../../../benchmarks/dialectic-calibration.js";
import { dialecticLoopTasks } from "../../../benchmarks/dialectic-loop-tasks.js";
import { CritiqueSchema } from "../../../src/dialectic/critique.js";
import { detectOscillation } from "../../../src/dialectic/detect-oscillation.js";
import { DialecticOutcomeSchema, type DialecticOutcome } from "../../../src/dialectic/dialectic-outcome.js";
import type { DialecticRound } from "../../../src/dialectic/dialectic-round.js";
import { DialecticSettingsSchema } from "../../../src/dialectic/dialectic-settings.js";
import { parseCritique } from "../../../src/dialectic/parse-critique.js";
import { TranscriptClient } from "../../helpers/transcript-client.js";
import { REAL_MODEL_SKIP_REASON, SMOLLM2_PATH, realModelAvailable } from "../real-model.js";
import { useRealModelClient } from "../use-real-model-client.js";

// Four rounds: an oscillation can be seen from the third (the window) and an escape tried in the fourth.
const SETTINGS = DialecticSettingsSchema.parse({ maxRounds: 4 });
const ESCAPE_ORDER = ["raise-temperature", "inject-constraints", "return-best"] as const;

/** Stalled by the specification, worked out here from the scores alone: no rise of 0.05 across the window, below approval. */
function stalledByHand(scores: readonly number[]): boolean {
  if (scores.length < SETTINGS.oscillationWindow) return false;
  const window = scores.slice(-SETTINGS.oscillationWindow);
  const rises = window.slice(1).map((score, index) => score - window[index]!);
  return window[window.length - 1]! < SETTINGS.approvalThreshold && rises.every((rise) => rise < SETTINGS.improvementThreshold - 1e-9);
}

const approves = (round: DialecticRound) => round.critique.approved && round.critique.score >= SETTINGS.approvalThreshold;

/** The state the rounds imply: how the last one ended the loop, or the rounds running out. */
function stateByHand(rounds: readonly DialecticRound[]): DialecticOutcome["state"] {
  const last = rounds[rounds.length - 1]!;
  if (approves(last)) return "converged";
  if (last.pattern !== null) return last.strategy === "return-best" ? "oscillating" : "max_rounds";
  if (stalledByHand(rounds.map((round) => round.critique.score))) return "stalled";
  return "max_rounds";
}

// Budget: about 50 s on 1 thread — two loops of up to four rounds side by side, 32-token proposals and critiques of up
// to 320 tokens, constrained to the critique's JSON schema.
describe(`the dialectic loop on SmolLM2, proposer and critic${REAL_MODEL_SKIP_REASON}`, () => {
  const smollm2 = useRealModelClient({ sequences: 2, contextSize: 1024 });

  it.skipIf(!realModelAvailable)("ends every loop in the state its recorded rounds imply, and logs an escape for each oscillation it detects", async () => {
    const client = new TranscriptClient(smollm2());
    const tasks = dialecticLoopTasks(2);
    const results = await runDialecticLoops(client, { tasks, seed: 3, settings: SETTINGS, proposerMaxTokens: 32 });
    const report = summariseLoops(results, SETTINGS, { model: SMOLLM2_PATH, threads: 1, seed: 3 }, performance.now());

    const critiques = client.entries.filter((entry) => entry.request.messages[0]?.content.startsWith("You are a strict but fair critic"));
    const tally = () => ({ applied: 0, broken: 0, recurred: 0, untried: 0 });
    const counted = { oscillatedRuns: 0, oscillations: 0, strategies: { "raise-temperature": tally(), "inject-constraints": tally() }, returnedBest: 0 };
    const states = { converged: 0, oscillating: 0, stalled: 0, max_rounds: 0 };
    for (const [index, result] of results.entries()) {
      // A critique constrained to the schema, at a budget that holds its bounds, always validates.
      expect(result.outcome).toEqual({ status: "scored" });
      const outcome = DialecticOutcomeSchema.parse(result.rollout.artifacts);
      const { rounds } = outcome;
      states[outcome.state]++;
      expect(outcome.state).toBe(stateByHand(rounds));
      expect(rounds.length).toBeLessThanOrEqual(SETTINGS.maxRounds);
      if (rounds.length < SETTINGS.maxRounds) expect(outcome.state).not.toBe("max_rounds");

      let oscillations = 0;
      for (const [at, round] of rounds.entries()) {
        const isLast = at === rounds.length - 1;
        // What the critic said: the model's last valid critique of this proposal, read from its raw text.
        const asked = critiques.filter((entry) => entry.request.messages[1]?.content === `TASK: ${tasks[index]}\n\nPROPOSAL TO EVALUATE:\n${round.proposal}`);
        const read = asked.flatMap((entry) => {
          const parsed = CritiqueSchema.safeParse((() => { try { return parseCritique(entry.text); } catch { return undefined; } })());
          return parsed.success ? [parsed.data] : [];
        });
        expect(read.length).toBeGreaterThan(0);
        const { critic: _critic, ...member } = round.critics[0]!;
        expect(read).toContainEqual(member);

        // Only the last round may end the loop; an oscillation is detected on the rounds as recorded.
        if (!isLast) expect(approves(round)).toBe(false);
        if (!(isLast && approves(round))) expect(round.pattern).toBe(detectOscillation(rounds.slice(0, at + 1), SETTINGS));
        if (round.pattern === null) {
          expect(round.strategy).toBeNull();
          if (!isLast) expect(stalledByHand(rounds.slice(0, at + 1).map((entry) => entry.critique.score))).toBe(false);
        } else {
          // The adaptive engine's escapes, in the specification's order: one for every oscillation.
          oscillations++;
          counted.oscillations++;
          expect(round.strategy).toBe(ESCAPE_ORDER[Math.min(oscillations, 3) - 1]);
          if (round.strategy === "return-best") {
            counted.returnedBest++;
            expect(isLast).toBe(true);
          } else {
            const entry = counted.strategies[round.strategy!];
            const after = rounds.slice(at + 1);
            entry.applied++;
            if (after.length === 0) entry.untried++;
            else if (after.some((later) => later.pattern !== null)) entry.recurred++;
            else entry.broken++;
          }
        }

        // The escape reaches the proposer: the next round is sampled hotter, or told the issues.
        const next = rounds[at + 1];
        if (next !== undefined) {
          const raised = Math.min(SETTINGS.maxTemperature, Math.round((round.temperature + SETTINGS.temperatureStep) * 1e6) / 1e6);
          expect(next.temperature).toBe(round.strategy === "raise-temperature" ? raised : round.temperature);
          if (round.strategy !== "inject-constraints") expect(next.constraints).toEqual(round.constraints);
        }
        const step = result.rollout.steps[at]!;
        expect(step.roleId).toBe("proposer");
        expect(step.sampler.temperature).toBe(round.temperature);
        expect(step.completion[0]!.content).toBe(round.proposal);
        const prompt = step.prompt[step.prompt.length - 1]!.content;
        expect(prompt.includes("CONSTRAINTS:")).toBe(round.constraints.length > 0);
        for (const constraint of round.constraints) expect(prompt).toContain(constraint);
      }
      expect(result.rollout.steps).toHaveLength(rounds.length);
      if (oscillations > 0) counted.oscillatedRuns++;
      if (oscillations === 0) {
        // No oscillation: nothing escaped, so every round ran at the first temperature and without constraints.
        expect(rounds.every((round) => round.temperature === SETTINGS.baseTemperature && round.constraints.length === 0)).toBe(true);
      }
    }

    // The report counts what the rounds hold.
    expect(report.failed).toEqual({});
    expect(report.states).toEqual(states);
    const { "raise-temperature": raise, "inject-constraints": inject } = counted.strategies;
    const tried = raise.broken + raise.recurred + inject.broken + inject.recurred;
    expect(report.escapes).toEqual({ ...counted, brokeShare: tried === 0 ? null : (raise.broken + inject.broken) / tried });
  });
});
