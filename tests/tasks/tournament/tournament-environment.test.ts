import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { createTournamentEnvironment, type TournamentEnvironmentOptions } from "../../../src/tasks/tournament/tournament-environment.js";
import { loadEnvironment } from "../../../src/tasks/built-in-environments.js";
import { bundledArithmeticBase } from "../../../src/inference/model-files/bundled-models.js";
import { parseAction } from "../../../src/tournament/world/actions.js";
import { train } from "../../../src/training/loop/train.js";
import type { TrainingStepMetrics } from "../../../src/training/loop/training-step-metrics.js";

async function rollouts(directory: string): Promise<GenerateResult[]> {
  return (await readFile(join(directory, "rollouts.jsonl"), "utf8")).split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as GenerateResult);
}

type CitizenSummary = { outcome: number; submitted: number; rejected: number; calls: number; invalid: number };

describe("the tournament environment", () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-tournament-env-"));
  });

  it("plans groups of episodes per world seed, defaults to the shipped 0.1.0 kernel, and refuses bad options by name", async () => {
    const environment = createTournamentEnvironment({ prompts: 3, groupSize: 2, seeds: 10 });
    expect(environment.plan).toEqual([{ episodeType: "tournament", count: 3, groupSize: 2 }]);
    expect(environment.stores.tournament?.size).toBe(10);
    expect((environment.episodes.options as { kernel: string }).kernel).toMatch(/constitutions[/\\]constitution-0\.1\.0\.yaml$/);
    expect(environment.samplerDefaults).toEqual({ temperature: 1, maxTokens: 112 });
    expect(typeof environment.evaluate).toBe("function");
    // The bundled base's compact prompt and the model's default context unless asked; a chat model's form and context by option.
    expect((environment.episodes.options as { episode: { prompt: string } }).episode.prompt).toBe("compact");
    expect(environment.contextSize).toBeUndefined();
    const chat = createTournamentEnvironment({ prompt: "chat", maxTokens: 48, contextSize: 512 });
    expect([(chat.episodes.options as { episode: { prompt: string } }).episode.prompt, chat.contextSize, chat.samplerDefaults]).toEqual(["chat", 512, { temperature: 1, maxTokens: 48 }]);
    await expect(loadEnvironment("tournament", { prompt: "words" })).rejects.toThrow(/environment\.prompt: got "words"; expected compact \(the bundled base's\) or chat \(an instruction-tuned model's\)/);
    await expect(loadEnvironment("tournament", { round: 2 })).rejects.toThrow(/round.*rounds/);
    await expect(loadEnvironment("tournament", { role: "red:anarchy" })).rejects.toThrow(/environment\.role.*red:<objective>/);
    await expect(loadEnvironment("tournament", { citizens: 3, llmCitizens: ["c0", "c3"] })).rejects.toThrow(/environment\.llmCitizens\.1.*c0 … c2/);
    await expect(loadEnvironment("tournament", { scriptedRed: { objective: "treasury-drain", citizens: ["c0"] } })).rejects.toThrow(/environment\.scriptedRed\.citizens\.0.*once/);
    expect((await loadEnvironment("tournament", { role: "red:exit-blocking", llmCitizens: ["c0", "c1"], scriptedRed: { objective: "treasury-drain", citizens: ["c4"] } })).name).toBe("tournament");
    // Opponent citizens: in the world, seated once, and never without the policy that plays them (nor it without them).
    await expect(loadEnvironment("tournament", { opponentCitizens: ["c1"] })).rejects.toThrow(/environment\.opponent: expected "base" or the path of a GGUF model or LoRA adapter: the policy that plays opponentCitizens/);
    await expect(loadEnvironment("tournament", { opponent: "base" })).rejects.toThrow(/environment\.opponentCitizens: expected the citizens opponent is for, e\.g\. \["c1"\]/);
    await expect(loadEnvironment("tournament", { opponentRole: "red:treasury-drain" })).rejects.toThrow(/environment\.opponentCitizens: expected the citizens opponentRole is for/);
    await expect(loadEnvironment("tournament", { opponentCitizens: ["c0"], opponent: "base" })).rejects.toThrow(/environment\.opponentCitizens\.0.*once, in one of llmCitizens, opponentCitizens and scriptedRed\.citizens/);
    await expect(loadEnvironment("tournament", { citizens: 3, opponentCitizens: ["c3"], opponent: "base" })).rejects.toThrow(/environment\.opponentCitizens\.0.*c0 … c2/);
    await expect(loadEnvironment("tournament", { opponentCitizens: ["c1"], opponent: "base", opponentRole: "red:anarchy" })).rejects.toThrow(/environment\.opponentRole.*red:<objective>/);
    expect((await loadEnvironment("tournament", { opponentCitizens: ["c1", "c2"], opponent: "base", opponentRole: "red:exit-blocking" })).frozenRoles).toEqual({ c1: "base", c2: "base" });
  });

  it("trains the bundled base with --trainer ggml: every LLM action is grammar-constrained JSON that parses and goes through the gate, the update trains the constrained Steps, and the held-out evaluation plays greedily (real engine)", async () => {
    const options: TournamentEnvironmentOptions = { rounds: 2, citizens: 4, prompts: 2, groupSize: 4, seeds: 8, evaluateEpisodes: 4 };
    const directory = join(folder, "ggml");
    const lines: TrainingStepMetrics[] = [];
    const { evaluations, report } = await train({
      environment: createTournamentEnvironment(options),
      modelPath: bundledArithmeticBase(),
      directory,
      trainer: "ggml",
      configuration: { environment: options, steps: 2, seed: 3, sequences: 8, trainer: { optimizer: { learningRate: 1e-3 } } },
      onStep: (line) => lines.push(line),
    });
    expect(lines.map((line) => line.step)).toEqual([1, 2]);
    // Greedy play on 4 held-out seeds, at the start and the end.
    expect(evaluations.map((evaluation) => [evaluation.step, evaluation.n])).toEqual([
      [0, 4],
      [2, 4],
    ]);
    for (const line of lines) {
      expect(line.rollouts).toEqual({ scored: 8, failed: 0, dropped: 0 });
      expect(line.skippedUpdate).toBe(false);
      expect(line.trainedRecords).toBeGreaterThan(0);
      // The ggml trainer replays the grammar masks: no constrained record is left out.
      expect(line.skippedRecords.constrained).toBe(0);
      expect(line.environment.invalidOutputs).toBe(0);
    }
    const results = await rollouts(directory);
    expect(results).toHaveLength(16);
    for (const result of results) {
      const c0 = (result.rollout.artifacts.citizens as Record<string, CitizenSummary>).c0!;
      expect(result.rollout.steps.length).toBe(c0.calls);
      for (const step of result.rollout.steps) {
        expect(step.roleId).toBe("c0");
        expect(step.constrained).toBe(true);
        expect(step.constraint?.kind).toBe("json-schema");
        expect(step.structured?.valid).toBe(true);
        expect(parseAction(JSON.parse(step.completion.at(-1)!.content), "completion").actor).toBe("c0");
      }
      // Every call became a submission to the gate (a turn refused twice adds the Pass playRounds submits); refusals are counted.
      expect(c0.submitted).toBeGreaterThanOrEqual(c0.calls);
      expect(c0.rejected).toBeLessThanOrEqual(c0.calls);
      expect(result.rewards.c0).toBeCloseTo(c0.outcome - 0.1 * c0.rejected, 12);
    }
    // The base knows only arithmetic: it picks actions the gate refuses (a tenth to a fifth of them), so the groups' rewards differ.
    expect(lines.some((line) => (line.environment.rejectedShare as number) > 0)).toBe(true);
    // report.json sums the run's submissions from the step lines: the rollouts' own counts.
    const c0s = results.map((result) => (result.rollout.artifacts.citizens as Record<string, CitizenSummary>).c0!);
    const submitted = c0s.reduce((sum, c0) => sum + c0.submitted, 0);
    const rejected = c0s.reduce((sum, c0) => sum + c0.rejected, 0);
    expect(report.tournament).toEqual({
      steps: 2,
      episodes: 16,
      citizens: { submitted, accepted: submitted - rejected, rejected, acceptedShare: (submitted - rejected) / submitted, invalidOutputs: 0 },
      episodesWithFindings: results.filter((result) => (result.rollout.artifacts.findings as unknown[]).length > 0).length,
    });
    // ~8 s alone on two cores.
  }, 120_000);

  it("plays opponent citizens from a league (--opponents league): their Steps carry a kept snapshot's version and never train, and the step line and the evaluation report them apart (real engine)", async () => {
    const options: TournamentEnvironmentOptions = { rounds: 1, citizens: 3, prompts: 2, groupSize: 2, seeds: 8, evaluateEpisodes: 2, opponentCitizens: ["c1"], opponent: "base" };
    const directory = join(folder, "league");
    const lines: TrainingStepMetrics[] = [];
    const { evaluations } = await train({
      environment: createTournamentEnvironment(options),
      modelPath: bundledArithmeticBase(),
      directory,
      trainer: "ggml",
      configuration: { environment: options, steps: 2, seed: 5, sequences: 8, evaluateEvery: 0, opponents: "league", league: { size: 2, currentShare: 0.5 }, trainer: { optimizer: { learningRate: 1e-3 } } },
      onStep: (line) => lines.push(line),
    });
    const results = await rollouts(directory);
    expect(results).toHaveLength(8);
    results.forEach((result, index) => {
      const step = Math.floor(index / 4);
      const moves = result.rollout.steps;
      expect(new Set(moves.map((move) => move.roleId))).toEqual(new Set(["c0", "c1"]));
      for (const move of moves) if (move.roleId === "c0") expect(move.policyVersion).toBe(step);
      // The league before step 1 is version 0 alone, before step 2 versions 0 and 1 (the current policy is version 1 too).
      for (const move of moves) if (move.roleId === "c1") expect([[0], [0, 1]][step]).toContain(move.policyVersion);
    });
    lines.forEach((line, index) => {
      // Only the policy's citizen trains: its Steps are the step's records (trained or skipped), the opponent's never.
      const own = results.slice(4 * index, 4 * index + 4).flatMap((result) => result.rollout.steps).filter((move) => move.roleId === "c0").length;
      expect(line.trainedRecords + Object.values(line.skippedRecords).reduce((sum, count) => sum + count, 0)).toBe(own);
      expect(Object.values(line.opponents ?? {}).reduce((sum, entry) => sum + entry.games, 0)).toBe(4);
      expect(line.environment).toEqual(expect.objectContaining({ rejectedShare: expect.any(Number), opponentRejectedShare: expect.any(Number) }));
    });
    const opponentFigures = ["opponentInvalidOutputs", "opponentMeanOutcome", "opponentRejected", "opponentRejectedShare", "opponentSubmitted"];
    expect(evaluations.map((evaluation) => Object.keys(evaluation.figures ?? {}).filter((name) => name.startsWith("opponent")).sort())).toEqual([opponentFigures, opponentFigures]);
  }, 120_000);
});
