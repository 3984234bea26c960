import { describe, expect, it } from "vitest";
import { Arena } from "../../../../src/arena/arena.js";
import type { JsonObject } from "../../../../src/core/json.js";
import type { Step } from "../../../../src/core/schemas/step.js";
import type { TournamentEpisodesOptions } from "../../../../src/tasks/tournament/tournament-episodes.js";
import { createTournamentEnvironment } from "../../../../src/tasks/tournament/tournament-environment.js";
import { detectCaptures } from "../../../../src/tournament/detectors/detect-captures.js";
import { captureScore } from "../../../../src/tournament/episode/citizen-outcome.js";
import { TournamentEpisode, type TournamentArtifact, type TournamentEpisodeState } from "../../../../src/tournament/episode/tournament-episode.js";
import { loadKernel } from "../../../../src/tournament/kernel/load-kernel.js";
import { eventLogHash } from "../../../../src/tournament/replay/canonical-json.js";
import { parseAction, type Action } from "../../../../src/tournament/world/actions.js";
import { TournamentWorld } from "../../../../src/tournament/world/tournament-world.js";
import { REAL_MODEL_SKIP_REASON, realModelAvailable } from "../../real-model.js";
import { smollm2ChatTemplate } from "../../smollm2-chat-template.js";
import { useRealModelClient } from "../../use-real-model-client.js";
import { useRealModelVocabulary } from "../../use-real-model-vocabulary.js";

/** The chat form benchmarks/configs/tournament-smollm2.json trains with, at a test's size: 2 rounds of 3 citizens, c0 the red team. */
const CHAT = { prompt: "chat", maxTokens: 64, temperature: 0.7, rounds: 2, citizens: 3, role: "red:treasury-drain", prompts: 1, groupSize: 2, maxAttemptsPerTurn: 2 } as const;

/** The tournament episode, keeping each played world: the gate's own records, which the test reads the figures against. */
class RecordingEpisode extends TournamentEpisode {
  readonly worlds: TournamentWorld[] = [];

  override finalize(state: TournamentEpisodeState, artifact: TournamentArtifact): JsonObject {
    this.worlds.push(state.world);
    return super.finalize(state, artifact);
  }
}

type CitizenSummary = { outcome: number; submitted: number; rejected: number; calls: number; invalid: number };

/** Every recorded Step's bookkeeping: the client's version, one finite logprob a completion token. */
function expectRecorded(step: Step): void {
  expect(step.policyVersion).toBe(0);
  expect(step.completionTokenIds.length).toBeGreaterThan(0);
  expect(step.completionLogprobs).toHaveLength(step.completionTokenIds.length);
  for (const logprob of step.completionLogprobs) expect(Number.isFinite(logprob) && logprob <= 0).toBe(true);
}

// 10–13 s on one thread of a 2-core machine at load ~4.5 (budget 60 s): 2 episodes of 2 rounds, c0's 2 turns each (a
// refused action tried again: at most 8 calls of a ~240-token prompt and a ~25-token action).
describe(`the tournament's LLM citizen on SmolLM2${REAL_MODEL_SKIP_REASON}`, () => {
  const client = useRealModelClient({ sequences: 2, contextSize: 512 });
  const vocabulary = useRealModelVocabulary();

  it.skipIf(!realModelAvailable)("acts in strict JSON under its grammar, every action through the gate: the refusals and findings recorded are the gate's and the detectors' own", async () => {
    const environment = createTournamentEnvironment(CHAT);
    const { kernel: kernelPath, episode: options } = environment.episodes.options as unknown as TournamentEpisodesOptions;
    const kernel = await loadKernel(kernelPath);
    const episode = new RecordingEpisode(kernel, options);
    const arena = new Arena({ client: client(), seed: 5, concurrency: 2, samplerDefaults: environment.samplerDefaults! });
    arena.register(episode, environment.stores.tournament);
    const results = await arena.generateRollouts(arena.getBatch(environment.plan));
    expect(results.map((result) => result.outcome.status)).toEqual(["scored", "scored"]);
    for (const result of results) {
      const artifacts = result.rollout.artifacts;
      // The world this rollout played: the one whose event log it recorded.
      const world = episode.worlds.find((candidate) => eventLogHash(candidate.events) === artifacts.eventLogHash)!;
      expect(world).toBeDefined();
      const steps = result.rollout.steps;
      // One call a turn at least, unless c0 has left (an Exit, legal at any time, ends its play).
      expect(steps.length).toBeGreaterThanOrEqual(1);
      // What each call submitted: the parsed action, or the Pass an output that does not validate (cut off) becomes.
      const submittedBySteps: Action[] = steps.map((step) => {
        expect(step.roleId).toBe("c0");
        expectRecorded(step);
        expect([step.constrained, step.constraint?.kind]).toEqual([true, "json-schema"]);
        // The chat form in SmolLM2's template: the citizen's system message (not the template's default) and the state in words.
        const [system, user] = step.prompt;
        expect(system!.content).toMatch(/^You are citizen c0 of a commons of 3 citizens .* Your goal: get more of the treasury paid to you through passed spends than your fair share\./);
        expect(user!.content).toMatch(/^Round [12] of 2\. Treasury: \d+\./);
        expect(vocabulary().detokenize(step.promptTokenIds as never[], true)).toBe(smollm2ChatTemplate([system!, user!]));
        const text = step.completion[0]!.content;
        if (step.structured?.valid !== true) {
          // Under the grammar only a completion cut off at maxTokens can fail to validate.
          expect(step.finishReason).toBe("length");
          return { type: "Pass", actor: "c0" };
        }
        const action = parseAction(JSON.parse(text), "completion");
        expect(action.actor).toBe("c0");
        return action;
      });
      // The gate's records: every submission of the run fed through the gate again, in order (a replay: the same
      // log), gives c0's submissions and the gate's verdict on each. Every Step's action is among them in order; the
      // only others are the Passes playRounds submits after a turn's two refusals.
      const replay = new TournamentWorld(kernel, world.config);
      const own: Action[] = [];
      const refused: boolean[] = [];
      for (const submission of world.submissions) {
        const { legal } = replay.resubmit(submission);
        if ((submission as Action).actor !== "c0") continue;
        own.push(parseAction(submission, "submission"));
        refused.push(!legal);
      }
      expect(eventLogHash(replay.events)).toBe(artifacts.eventLogHash);
      let next = 0;
      let refusedInRow = 0;
      for (const [index, action] of own.entries()) {
        if (refusedInRow === CHAT.maxAttemptsPerTurn) {
          expect(action).toEqual({ type: "Pass", actor: "c0" });
          refusedInRow = 0;
          continue;
        }
        expect(action).toEqual(submittedBySteps[next++]);
        refusedInRow = refused[index] === true ? refusedInRow + 1 : 0;
      }
      expect(next).toBe(steps.length);
      // The recorded figures are those counts.
      const c0 = (artifacts.citizens as Record<string, CitizenSummary>).c0!;
      expect(c0).toEqual({
        outcome: captureScore("treasury-drain", world.events, { kernel, world: world.config, redTeam: ["c0"] }),
        submitted: own.length,
        rejected: refused.filter(Boolean).length,
        calls: steps.length,
        invalid: steps.filter((step) => step.structured?.valid !== true).length,
      });
      expect(result.rewards.c0).toBeCloseTo(c0.outcome - 0.1 * c0.rejected, 12);
      // The findings are the detectors' verdict on the gate's log, judged against the red team (c0).
      expect(artifacts.findings).toEqual(detectCaptures(world.events, { kernel, world: world.config, redTeam: ["c0"] }).map((finding) => finding.objective));
    }
    // And the step line sums the same counts.
    const summary = environment.summarise!(results);
    const c0s = results.map((result) => (result.rollout.artifacts.citizens as Record<string, CitizenSummary>).c0!);
    expect([summary.submitted, summary.rejected, summary.invalidOutputs]).toEqual([c0s.reduce((sum, c0) => sum + c0.submitted, 0), c0s.reduce((sum, c0) => sum + c0.rejected, 0), c0s.reduce((sum, c0) => sum + c0.invalid, 0)]);
  });
});
