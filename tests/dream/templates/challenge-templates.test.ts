import { describe, expect, it } from "vitest";
import { deriveStream } from "../../../src/core/random/random-stream.js";
import { ChallengeTierSchema, type ChallengeTier } from "../../../src/dream/challenges/challenge-tier.js";
import { ChallengeWorkspace } from "../../../src/dream/challenges/challenge-workspace.js";
import { readOutputFile } from "../../../src/dream/challenges/read-output-file.js";
import { createChallengeSandbox } from "../../../src/dream/challenges/create-challenge-sandbox.js";
import { prepareFixtures, runValidator } from "../../../src/dream/challenges/run-challenge-attempt.js";
import { checkValidatorQuality } from "../../../src/dream/gates/check-validator-quality.js";
import { runValidatorSelfTest } from "../../../src/dream/gates/run-validator-self-test.js";
import { CHALLENGE_TEMPLATES } from "../../../src/dream/templates/challenge-templates.js";
import { renderTemplate, type TemplatedChallenge } from "../../../src/dream/templates/render-template.js";

const sandbox = createChallengeSandbox({ timeoutMs: 10_000 });
const TIERS = ChallengeTierSchema.options;
const cases = CHALLENGE_TEMPLATES.flatMap((template) => TIERS.map((tier) => ({ template, tier })));

async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T);
      }
    }),
  );
  return results;
}

/** The reference's output made wrong in a small way: a number off by one, else an element or line dropped. */
function perturb(output: string, outputFile: string): string {
  if (!outputFile.endsWith(".json")) return output.split("\n").slice(1).join("\n");
  let changed = false;
  const bump = (value: unknown): unknown => {
    if (changed) return value;
    if (typeof value === "number") {
      changed = true;
      return value + 1;
    }
    if (Array.isArray(value)) return value.map(bump);
    if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, bump(inner)]));
    return value;
  };
  const parsed: unknown = JSON.parse(output);
  const bumped = bump(parsed);
  if (changed) return JSON.stringify(bumped);
  if (Array.isArray(parsed)) return JSON.stringify(parsed.slice(1));
  return JSON.stringify(Object.fromEntries(Object.entries(parsed as object).slice(1)));
}

function render(key: string, tier: ChallengeTier, seed = 7): TemplatedChallenge {
  const template = CHALLENGE_TEMPLATES.find((candidate) => candidate.key === key);
  if (template === undefined) throw new Error(key);
  return renderTemplate(template, tier, deriveStream(seed, "template", key, tier));
}

describe("challenge templates", () => {
  it("has at least two templates per cluster and unique keys", () => {
    const keys = CHALLENGE_TEMPLATES.map((template) => template.key);
    expect(new Set(keys).size).toBe(keys.length);
    const perCluster = new Map<string, number>();
    for (const template of CHALLENGE_TEMPLATES) perCluster.set(template.cluster, (perCluster.get(template.cluster) ?? 0) + 1);
    expect([...perCluster.values()].every((count) => count >= 2)).toBe(true);
    expect(perCluster.size).toBe(6);
  });

  it("renders the same challenge from the same seed, a bigger one at a higher tier, and describes the twist", () => {
    for (const template of CHALLENGE_TEMPLATES) {
      expect(render(template.key, "advanced").challenge).toEqual(render(template.key, "advanced").challenge);
      const basic = render(template.key, "basic").challenge;
      const expert = render(template.key, "expert").challenge;
      expect(expert.setup.length, template.key).toBeGreaterThan(1.5 * basic.setup.length);
      expect(expert.prompt.length, template.key).toBeGreaterThan(basic.prompt.length);
      expect(render(template.key, "intermediate").challenge.prompt.length, template.key).toBe(basic.prompt.length);
    }
  });

  it("passes the quality gate at every tier", () => {
    for (const { template, tier } of cases) {
      const { challenge } = render(template.key, tier);
      expect(checkValidatorQuality(challenge), `${template.key} ${tier}`).toEqual({ accepted: true });
    }
  });

  it(
    "is solvable by its reference solution at every tier in the real sandbox, and rejects an empty and a wrong output",
    async () => {
      const outcomes = await mapLimit(cases, 12, async ({ template, tier }) => {
        const { challenge, referenceSolution } = render(template.key, tier);
        // One setup and one reference run; the validator then judges the reference's output, an empty one and a wrong one.
        const workspace = new ChallengeWorkspace();
        try {
          const prepared = await prepareFixtures(challenge, sandbox, workspace);
          if (prepared.fixtures === null) return { name: `${template.key} ${tier}`, problem: `setup failed: ${prepared.setup.stderr}`, verdicts: [] };
          const solution = await sandbox.run({ source: referenceSolution, directory: prepared.directory, role: "solution" });
          const output = await readOutputFile(prepared.directory, challenge.outputFile);
          if (output === null) return { name: `${template.key} ${tier}`, problem: `no output: ${solution.stderr}`, verdicts: [] };
          const verdicts = [];
          for (const candidate of [output, "", perturb(output, challenge.outputFile)]) {
            const judged = await runValidator(challenge, prepared.fixtures, candidate, sandbox, workspace);
            verdicts.push(`${judged.verdict.kind}${judged.verdict.kind === "passed" ? "" : ` (${judged.run.stderr.slice(0, 200)})`}`);
          }
          return { name: `${template.key} ${tier}`, problem: null, verdicts };
        } finally {
          await workspace.dispose();
        }
      });
      for (const { name, problem, verdicts } of outcomes) {
        expect(problem, name).toBeNull();
        expect(verdicts[0], `${name} reference`).toBe("passed");
        expect(verdicts[1]?.startsWith("failed"), `${name} empty: ${verdicts[1]}`).toBe(true);
        expect(verdicts[2]?.startsWith("failed"), `${name} wrong: ${verdicts[2]}`).toBe(true);
      }
    },
    60_000,
  );

  it(
    "passes the validator self-test gate (its own expected output passes)",
    async () => {
      const results = await mapLimit(CHALLENGE_TEMPLATES, 6, async (template) => ({
        key: template.key,
        result: await runValidatorSelfTest(render(template.key, "expert").challenge, sandbox),
      }));
      for (const { key, result } of results) expect(result.status, `${key}: ${JSON.stringify(result).slice(0, 300)}`).toBe("passed");
    },
    60_000,
  );
});
