import type { InferenceClient } from "../../core/inference-client.js";
import type { RandomStream } from "../../core/random/random-stream.js";
import type { Challenge } from "../challenges/challenge.js";
import { ChallengeClusterSchema, type ChallengeCluster } from "../challenges/challenge-cluster.js";
import type { ChallengeSandbox } from "../challenges/challenge-sandbox.js";
import type { ChallengeTier } from "../challenges/challenge-tier.js";
import type { ChallengeWorkspaceOptions } from "../challenges/challenge-workspace.js";
import type { ValidatorRejection } from "../gates/validator-rejection.js";
import { journalVariationPrompt } from "../journal/journal-variation-prompt.js";
import type { JournalSeed } from "../journal/mine-journal.js";
import { challengeFromJournal } from "../sources/challenge-from-journal.js";
import { generateChallenge } from "../sources/generate-challenge.js";
import type { ChallengeSourceKind } from "../sources/route-challenge-source.js";
import type { ChallengeTemplate } from "../templates/challenge-template.js";
import { screenChallenge } from "../gates/screen-challenge.js";
import { pickTemplate } from "../templates/pick-template.js";

/** What `obtainChallenge` needs. */
export interface ObtainChallengeOptions {
  kind: ChallengeSourceKind;
  journalSeed: JournalSeed | null;
  cluster: ChallengeCluster;
  tier: ChallengeTier;
  saturated: readonly string[];
  templates: readonly ChallengeTemplate[];
  lastTemplateKey: string | null;
  client: InferenceClient;
  sandbox: ChallengeSandbox;
  /** Draws of template picks, renderings and generator seeds. */
  random: RandomStream;
  /** Generated challenges the gates may reject before the cycle gives up. Default 3 (the first included). */
  maxGenerations: number;
  workspace?: ChallengeWorkspaceOptions;
}

/** A gated challenge, or every rejection on the way to none. */
export interface ObtainedChallenge {
  challenge: Challenge | null;
  /** The source that produced it (a journal `vary` seed or a retry that cannot be rebuilt becomes `generated`). */
  source: ChallengeSourceKind;
  templateKey: string | null;
  /** What the frontier deduplicates on: the challenge's id, or for a journal retry the id it failed under (a retry is a re-roll). */
  dedupHash: string | null;
  /** Each rejected try: the gate's rejection, or the generator's problem when it wrote no challenge. */
  rejections: Array<{ kind: ValidatorRejection["kind"] | "malformed"; message: string }>;
}

/** Renders, mines or generates the cycle's challenge and runs the gates; a rejected generated challenge is regenerated with the rejection as feedback. */
export async function obtainChallenge(options: ObtainChallengeOptions): Promise<ObtainedChallenge> {
  const rejections: ObtainedChallenge["rejections"] = [];
  let fixed: { challenge: Challenge; templateKey: string | null; source: ChallengeSourceKind; dedupHash: string } | null = null;
  if (options.kind === "template" || options.kind === "template-other-cluster") {
    const cluster = options.kind === "template" ? options.cluster : otherCluster(options);
    const templated = cluster === null ? null : pickTemplate(cluster, options.tier, options.random, options.lastTemplateKey, { templates: options.templates });
    if (templated !== null) fixed = { challenge: templated.challenge, templateKey: templated.templateKey, source: options.kind, dedupHash: templated.challenge.id };
  } else if (options.kind === "journal" && options.journalSeed?.mode === "retry") {
    const challenge = challengeFromJournal(options.journalSeed, options.tier);
    if (challenge !== null) fixed = { challenge, templateKey: null, source: "journal", dedupHash: options.journalSeed.run.challenge.hash };
  }
  if (fixed !== null) {
    const verdict = await screenChallenge(fixed.challenge, options.sandbox, options.workspace);
    if (verdict.accepted) return { ...fixed, rejections };
    rejections.push({ kind: verdict.rejection.kind, message: verdict.rejection.message });
    return { challenge: null, source: fixed.source, templateKey: fixed.templateKey, dedupHash: null, rejections };
  }
  // Generated: a journal `vary` seed (or a retry that cannot be rebuilt) briefs the generator with the failure.
  const journalBrief = options.journalSeed === null ? undefined : journalVariationPrompt(options.journalSeed);
  const source: ChallengeSourceKind = options.journalSeed === null ? "generated" : "journal";
  let feedback: string | undefined;
  for (let generation = 0; generation < options.maxGenerations; generation++) {
    const generated = await generateChallenge({
      client: options.client,
      random: options.random,
      tier: options.tier,
      saturated: options.saturated,
      ...(journalBrief !== undefined && { journalBrief }),
      ...(feedback !== undefined && { feedback }),
    });
    if (!generated.ok) {
      rejections.push({ kind: "malformed", message: generated.problem });
      feedback = `your answer was not the JSON object asked for (${generated.problem})`;
      continue;
    }
    const verdict = await screenChallenge(generated.challenge, options.sandbox, options.workspace);
    if (verdict.accepted) return { challenge: generated.challenge, source, templateKey: null, dedupHash: generated.challenge.id, rejections };
    rejections.push({ kind: verdict.rejection.kind, message: verdict.rejection.message });
    feedback = verdict.rejection.message;
  }
  return { challenge: null, source, templateKey: null, dedupHash: null, rejections };
}

/**
 * The cluster of a saturated-rotation template: another cluster with a
 * template, unsaturated when there is one (the seed's
 * pick_random_template(exclude_clusters=saturated)), uniformly from the stream.
 */
function otherCluster(options: ObtainChallengeOptions): ChallengeCluster | null {
  const covered = ChallengeClusterSchema.options.filter((cluster) => cluster !== options.cluster && options.templates.some((template) => template.cluster === cluster));
  const open = covered.filter((cluster) => !options.saturated.includes(cluster));
  const pool = open.length > 0 ? open : covered;
  return pool.length === 0 ? null : options.random.pick(pool);
}
