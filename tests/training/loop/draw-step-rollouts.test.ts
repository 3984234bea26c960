import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import type { EpisodeRequest } from "../../../src/core/schemas/episode-request.js";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { parseInput } from "../../../src/core/parse-input.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { DatasetEpisode } from "../../../src/tasks/dataset/dataset-episode.js";
import { rubricOf } from "../../../src/tasks/dataset/dataset-rubric.js";
import { drawStepRollouts } from "../../../src/training/loop/draw-step-rollouts.js";
import { DynamicSamplingConfigurationSchema, type DynamicSamplingConfiguration } from "../../../src/training/loop/dynamic-sampling-configuration.js";
import { TrainingConfigurationSchema } from "../../../src/training/loop/training-configuration.js";
import type { StepRequestChoice, StepRequests } from "../../../src/training/loop/step-requests.js";

/**
 * Questions by kind: `easy` is always answered right and `hard` always wrong (groups whose rewards are all
 * equal); `mixed` right every other time, so each group of four has two right and two wrong (informative).
 */
type Kind = "easy" | "hard" | "mixed";
const GROUP_SIZE = 4;

/** A client that answers as the question's kind says; the arena runs one episode at a time, so a group's four are consecutive. */
function kindClient(): ScriptedInferenceClient {
  const asked = new Map<string, number>();
  const reply = (request: GenerationRequest) => {
    const question = String(request.messages.at(-1)?.content);
    const times = asked.get(question) ?? 0;
    asked.set(question, times + 1);
    if (question.startsWith("easy")) return "yes";
    if (question.startsWith("hard")) return "no";
    return times % 2 === 0 ? "yes" : "no";
  };
  return new ScriptedInferenceClient({ rules: [{ when: () => true, reply }] });
}

/** Step requests whose draws are scripted: draw d asks one group of four per kind listed, with group ids `d<d>.<i>`; records what it observes. */
class ScriptedDraws implements StepRequests {
  readonly mode = "uniform";
  readonly observed: number[] = [];
  private draw = 0;

  constructor(
    private readonly draws: readonly (readonly Kind[])[],
    private readonly onChoose: () => void = () => {},
  ) {}

  async choose(): Promise<StepRequestChoice> {
    this.onChoose();
    const draw = this.draw++;
    const kinds = this.draws[draw] ?? [];
    const requests: EpisodeRequest[] = kinds.flatMap((kind, index) =>
      Array.from({ length: GROUP_SIZE }, () => ({ episodeType: "dataset", artifact: { question: `${kind} ${draw}.${index}`, answer: "yes" }, groupId: `d${draw}.${index}` })),
    );
    return { requests, reasons: { uniform: kinds.length }, targets: {}, messages: [] };
  }

  observe(results: readonly GenerateResult[]): void {
    this.observed.push(results.length);
  }

  snapshot(): null {
    return null;
  }

  async dispose(): Promise<void> {}
}

// Draw 0: 1 informative group of 4; draw 1: 2 more; draw 2: 3 more.
const DRAWS: Kind[][] = [
  ["easy", "hard", "mixed", "easy"],
  ["hard", "mixed", "mixed", "easy"],
  ["mixed", "mixed", "mixed", "hard"],
];

/** One question, one answer by `student`: 1 when it is the row's answer. */
const questionEpisode = new DatasetEpisode(
  { prompt: (item) => [{ role: "user", content: String(item.question) }], rubric: rubricOf([{ name: "exactMatch", fn: (completion, item) => (completion.trim() === item.answer ? 1 : 0) }]) },
  4,
);

async function draw(
  configuration: Partial<DynamicSamplingConfiguration>,
  options: { now?: () => number; onChoose?: () => void; adjustRewards?: (results: readonly GenerateResult[]) => GenerateResult[] } = {},
) {
  const arena = new Arena({ client: kindClient(), seed: 1, concurrency: 1 }).register(questionEpisode);
  const requests = new ScriptedDraws(DRAWS, options.onChoose);
  const progress: string[] = [];
  const step = await drawStepRollouts({
    requests,
    arena,
    dynamicSampling: DynamicSamplingConfigurationSchema.parse(configuration),
    isTrainedRole: () => true,
    now: options.now ?? (() => 0),
    ...(options.adjustRewards && { adjustRewards: options.adjustRewards }),
    onProgress: ({ done, total }) => progress.push(`${done}/${total}`),
  });
  return { ...step, observed: requests.observed, progress, nextEpisode: arena.snapshot().nextEpisodeIndex };
}

describe("drawStepRollouts", () => {
  it("draws the plan again until the step has as many informative groups as its first draw made groups, and fills the update to that target", async () => {
    const step = await draw({ enabled: true });
    expect(step.groups).toEqual({ drawn: 12, informative: 6, kept: 4, dropped: 8, target: 4, draws: 3, reachedTarget: true });
    // Every all-equal group, and the informative ones past the target (draw order), leave the update.
    expect([...step.droppedGroups].sort()).toEqual(["d0.0", "d0.1", "d0.3", "d1.0", "d1.3", "d2.1", "d2.2", "d2.3"]);
    // Every rollout drawn is returned (and so logged), and each draw was observed before the next choice.
    expect(step.results).toHaveLength(48);
    expect(step.results.map((result) => result.rollout.id)).toEqual(Array.from({ length: 48 }, (_, index) => `ep${index}`));
    expect(step.observed).toEqual([16, 16, 16]);
    expect(step.nextEpisode).toBe(48);
    expect(step.choice.reasons).toEqual({ uniform: 12 });
    expect(step.progress.slice(15, 17)).toEqual(["16/16", "17/32"]);
    expect(step.progress.at(-1)).toBe("48/48");
  });

  it("stops at maxDraws: a step that misses its target trains on the informative groups it has", async () => {
    const step = await draw({ enabled: true, maxDraws: 2 });
    expect(step.groups).toEqual({ drawn: 8, informative: 3, kept: 3, dropped: 5, target: 4, draws: 2, reachedTarget: false });
    expect([...step.droppedGroups].sort()).toEqual(["d0.0", "d0.1", "d0.3", "d1.0", "d1.3"]);
    expect(step.results).toHaveLength(32);
  });

  it("starts no draw that the mean draw so far would take past maxSeconds", async () => {
    // Each draw takes 10 s of the injected clock.
    let milliseconds = 0;
    const options = { now: () => milliseconds, onChoose: () => (milliseconds += 10_000) };
    expect((await draw({ enabled: true, maxSeconds: 25 }, options)).groups).toMatchObject({ draws: 2, informative: 3, reachedTarget: false });
    milliseconds = 0;
    expect((await draw({ enabled: true, maxSeconds: 35 }, options)).groups).toMatchObject({ draws: 3, kept: 4, reachedTarget: true });
  });

  it("stops as soon as a set targetGroups is reached", async () => {
    const step = await draw({ enabled: true, targetGroups: 2 });
    expect(step.groups).toEqual({ drawn: 8, informative: 3, kept: 2, dropped: 6, target: 2, draws: 2, reachedTarget: true });
    expect(step.droppedGroups.has("d1.2")).toBe(true);
  });

  it("off: one draw, every group kept, the counts logged", async () => {
    const step = await draw({});
    expect(step.groups).toEqual({ drawn: 4, informative: 1, kept: 4, dropped: 0, target: 4, draws: 1, reachedTarget: false });
    expect(step.droppedGroups.size).toBe(0);
    expect(step.observed).toEqual([16]);
  });

  it("applies the environment's step-level reward term to each draw before its groups are judged and observed", async () => {
    const adjusted: number[] = [];
    // A term that pays the first member of every group 1 more: every all-equal group now disagrees.
    const adjustRewards = (results: readonly GenerateResult[]) => {
      adjusted.push(results.length);
      return results.map((result, index) => (index % GROUP_SIZE === 0 ? { ...result, rewards: { student: (result.rewards.student ?? 0) + 1 } } : result));
    };
    const step = await draw({ enabled: true }, { adjustRewards });
    expect(adjusted).toEqual([16]);
    expect(step.groups).toMatchObject({ informative: 4, target: 4, draws: 1, reachedTarget: true });
    expect(step.results[0]!.rewards.student).toBe(2);
    expect(step.results[1]!.rewards.student).toBe(1);
  });

  it("refuses a bad dynamicSampling field in a training configuration, naming it", () => {
    const parse = (dynamicSampling: object) => parseInput(TrainingConfigurationSchema, { dynamicSampling }, { fieldName: (path) => `configuration.${path.map(String).join(".")}` });
    expect(() => parse({ maxDraws: 0 })).toThrow(/^configuration\.dynamicSampling\.maxDraws: got 0; expected /);
    expect(() => parse({ maxSeconds: -1 })).toThrow(/^configuration\.dynamicSampling\.maxSeconds: got -1; expected /);
    expect(() => parse({ enabled: true, target: 4 })).toThrow(/configuration\.dynamicSampling/);
    expect(parse({}).dynamicSampling).toEqual({ enabled: false, maxDraws: 3 });
  });
});
