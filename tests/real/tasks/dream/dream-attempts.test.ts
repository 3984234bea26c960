import { describe, expect, it } from "vitest";
import { Arena } from "../../../../src/arena/arena.js";
import { ArtifactStore } from "../../../../src/arena/artifact-store.js";
import { deriveStream } from "../../../../src/core/random/random-stream.js";
import type { Messages } from "../../../../src/core/schemas/message.js";
import type { Rollout } from "../../../../src/core/schemas/rollout.js";
import type { ScoringContext } from "../../../../src/core/verifiers/verifier.js";
import { createChallengeSandbox } from "../../../../src/dream/challenges/create-challenge-sandbox.js";
import { runChallengeAttempt } from "../../../../src/dream/challenges/run-challenge-attempt.js";
import { attemptErrorSummary } from "../../../../src/dream/solver/attempt-error-summary.js";
import { DREAM_SOLVER_ROLE } from "../../../../src/dream/solver/dream-solver-role.js";
import { extractSolutionSource } from "../../../../src/dream/solver/extract-solution-source.js";
import { pickTemplate } from "../../../../src/dream/templates/pick-template.js";
import { DreamEpisode } from "../../../../src/tasks/dream/dream-episode.js";
import { REAL_MODEL_SKIP_REASON, realModelAvailable } from "../../real-model.js";
import { smollm2ChatTemplate } from "../../smollm2-chat-template.js";
import { useRealModelClient } from "../../use-real-model-client.js";
import { useRealModelVocabulary } from "../../use-real-model-vocabulary.js";

/** The sandbox limits of the dream environment's defaults. */
const SANDBOX = { timeoutMs: 10_000, memoryMb: 256 };

/** A completion that carries `source` as the solver's program. */
const program = (source: string) => `\`\`\`js\n${source}\n\`\`\``;

// 17–28 s on one thread of a 2-core machine at load ~4.5 (budget 60 s): two attempts of at most 256 tokens at one basic
// text-processing challenge (a 148-token prompt), each graded by three sandboxed programs, then four more sandboxed attempts.
describe(`a dream challenge attempted by SmolLM2${REAL_MODEL_SKIP_REASON}`, () => {
  const client = useRealModelClient({ sequences: 2, contextSize: 1024 });
  const vocabulary = useRealModelVocabulary();

  it.skipIf(!realModelAvailable)("renders a challenge, lets the solver write a program in its chat template, and records the sandbox's verdict on it", async () => {
    const rendered = pickTemplate("text-processing", "basic", deriveStream(7, "dream-real-test"), null)!;
    const { challenge } = rendered;
    const episode = new DreamEpisode({ maxTokens: 256, sandbox: SANDBOX });
    const arena = new Arena({ client: client(), seed: 4, concurrency: 2, samplerDefaults: { temperature: 0.7 } });
    arena.register(episode, ArtifactStore.of([{ challenge, playbookBlock: "" }]));
    const results = await arena.generateRollouts(arena.getBatch([{ episodeType: "dream", count: 1, groupSize: 2 }]));
    expect(results).toHaveLength(2);
    const sandbox = createChallengeSandbox(SANDBOX);
    const messages: Messages = [
      { role: "system", content: DREAM_SOLVER_ROLE.systemPrompt },
      { role: "user", content: `### TASK:\n${challenge.prompt}\nWrite the answer to ${challenge.outputFile}.` },
    ];
    for (const result of results) {
      // One Step: the dream solver's system prompt and the task, in SmolLM2's template.
      const [step] = result.rollout.steps;
      expect(result.rollout.steps).toHaveLength(1);
      expect(step!.roleId).toBe(DREAM_SOLVER_ROLE.id);
      expect(step!.prompt).toEqual(messages);
      expect(vocabulary().detokenize(step!.promptTokenIds as never[], true)).toBe(smollm2ChatTemplate(messages));
      expect(step!.policyVersion).toBe(0);
      expect(step!.completionTokenIds.length).toBeGreaterThan(0);
      expect(step!.completionTokenIds.length).toBeLessThanOrEqual(256);
      expect(step!.completionLogprobs).toHaveLength(step!.completionTokenIds.length);
      for (const logprob of step!.completionLogprobs) expect(Number.isFinite(logprob) && logprob <= 0).toBe(true);
      // The program attempted is the reply's, and the verdict recorded is the sandbox's on it: run it again.
      const solution = result.rollout.artifacts.solution as string;
      expect(solution).toBe(extractSolutionSource(step!.completion[0]!.content));
      const again = await runChallengeAttempt(challenge, solution, sandbox);
      expect(again.stoppedAt).not.toBe("setup");
      expect((again.solution?.isolation as { namespaces?: boolean } | undefined)?.namespaces).toBe(true);
      if (again.verdict?.abortsCycle) {
        // A validator that crashed on its own cannot grade: the rollout is left out, never scored.
        expect(result.outcome).toMatchObject({ status: "failed", stage: "score", error: { name: "UngradableChallengeError" } });
        continue;
      }
      expect(result.outcome.status).toBe("scored");
      expect(result.rewards[DREAM_SOLVER_ROLE.id]).toBe(again.passed ? 1 : 0);
      expect(result.scoreDetails).toMatchObject({ passed: again.passed, cluster: "text-processing", tier: "basic", validatorKind: again.verdict!.kind, error: again.passed ? null : attemptErrorSummary(again) });
    }
    // The same verifier passes the template's reference solution and fails a program that writes nothing: it runs what it grades.
    const rollout = results[0]!.rollout;
    const withCompletion = (content: string): Rollout => ({ ...rollout, steps: [{ ...rollout.steps[0]!, completion: [{ role: "assistant", content }] }] });
    const context = {} as ScoringContext;
    expect((await episode.verifier.score(withCompletion(program(rendered.referenceSolution)), context)).rewards).toEqual({ [DREAM_SOLVER_ROLE.id]: 1 });
    const empty = await episode.verifier.score(withCompletion(program("console.log('no answer');")), context);
    expect(empty.rewards).toEqual({ [DREAM_SOLVER_ROLE.id]: 0 });
    expect(empty.details).toMatchObject({ passed: false, error: "the solution exited 0 but did not write the output file" });
  });
});
