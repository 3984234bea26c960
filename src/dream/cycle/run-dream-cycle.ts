import { toErrorRecord } from "../../core/errors/index.js";
import type { InferenceClient } from "../../core/inference-client.js";
import { deriveStream } from "../../core/random/random-stream.js";
import type { PrmScorer } from "../../frontier/prm/prm-scorer.js";
import type { PrmExample } from "../../frontier/prm/prm-state.js";
import { ChallengeClusterSchema, type ChallengeCluster } from "../challenges/challenge-cluster.js";
import type { Challenge } from "../challenges/challenge.js";
import type { ChallengeSandbox } from "../challenges/challenge-sandbox.js";
import type { ChallengeWorkspaceOptions } from "../challenges/challenge-workspace.js";
import { mineJournal } from "../journal/mine-journal.js";
import { clientLessonJudge } from "../lessons/client-lesson-judge.js";
import type { LessonJudge } from "../lessons/extract-lesson.js";
import { learnLesson } from "../playbook/learn-lesson.js";
import type { DreamSolver } from "../solver/dream-solver.js";
import { solveChallenge, type SolveResult } from "../solver/solve-challenge.js";
import { routeChallengeSource, type SaturationRoutingOptions } from "../sources/route-challenge-source.js";
import type { ChallengeTemplate } from "../templates/challenge-template.js";
import { CHALLENGE_TEMPLATES } from "../templates/challenge-templates.js";
import { clusterDomains } from "./cluster-domains.js";
import { clusterTier } from "./cluster-tier.js";
import type { DreamCycleRecord, DreamCycleStatus } from "./dream-cycle-record.js";
import type { DreamWorkspace } from "./dream-workspace.js";
import { obtainChallenge } from "./obtain-challenge.js";

/** Options of `runDreamCycle`. */
export interface DreamCycleOptions {
  /** The output folder's stores: playbook, journal, frontier, logs. */
  workspace: DreamWorkspace;
  /** The model that generates challenges (and, unless `judge` is given, writes lessons). */
  client: InferenceClient;
  /** The solver role. */
  solver: DreamSolver;
  /** Runs every setup, solution and validator. */
  sandbox: ChallengeSandbox;
  /** The challenge templates to render. Default: CHALLENGE_TEMPLATES (two per cluster). */
  templates?: readonly ChallengeTemplate[];
  /** The run seed: every draw of the cycle derives from (seed, cycle index). */
  seed: number;
  /** The clock of the records and the journal. */
  now: () => Date;
  /** A trained PRM: the frontier weighs clusters by it (else its plain brittle-pool pick). */
  prm?: PrmScorer;
  /** Clusters the frontier picks among. Default: every cluster some template covers. */
  clusters?: readonly ChallengeCluster[];
  /** Who writes lessons. Default: clientLessonJudge over `client`. */
  judge?: LessonJudge;
  /** Generated challenges tried per cycle before giving up. Default 3. */
  maxGenerations?: number;
  routing?: SaturationRoutingOptions;
  /** Where the challenge directories are made. */
  challengeWorkspace?: ChallengeWorkspaceOptions;
  /** Journal excerpts shown to the solver, most recent of its cluster. Default 3. */
  journalExcerpts?: number;
}

/**
 * One dream cycle, in the seed's order: pick the cluster (frontier), route the
 * source (saturation), obtain and gate the challenge, solve (3 attempts,
 * errors fed back), journal a failure, learn a lesson after a struggled win,
 * record lesson usage, the frontier outcome and the PRM trajectory, append the
 * cycle record. Returns the record.
 */
export async function runDreamCycle(options: DreamCycleOptions): Promise<DreamCycleRecord> {
  const { workspace } = options;
  const index = workspace.cycleCount;
  const stream = (purpose: string) => deriveStream(options.seed, "dream", `cycle-${index}`, purpose);
  const startedAt = options.now().toISOString();

  // Pick: the frontier's cluster, and its tier.
  const templates = options.templates ?? CHALLENGE_TEMPLATES;
  const candidates = options.clusters ?? [...new Set(templates.map((template) => template.cluster))];
  const decision = options.prm
    ? await workspace.frontier.pickFrontierSeed(candidates, { scorer: options.prm, trajectoryCounts: workspace.trajectoryCounts })
    : workspace.frontier.pickSeed(candidates);
  const cluster = ChallengeClusterSchema.parse(decision.cluster);
  const tier = clusterTier(workspace.frontier.clusterStats(cluster));
  const allSaturated = candidates.every((candidate) => workspace.frontier.isSaturated(candidate));

  // Route and obtain: saturation routing, then the gates (generated challenges regenerated on rejection).
  const route = routeChallengeSource(allSaturated, stream("route"), () => mineJournal(workspace.journal, stream("mine"), decision.saturated), options.routing);
  const obtained = await obtainChallenge({
    kind: route.kind,
    journalSeed: route.seed,
    cluster,
    tier,
    saturated: decision.saturated,
    templates,
    lastTemplateKey: workspace.lastTemplateKey,
    client: options.client,
    sandbox: options.sandbox,
    random: stream("challenge"),
    maxGenerations: options.maxGenerations ?? 3,
    ...(options.challengeWorkspace && { workspace: options.challengeWorkspace }),
  });
  if (obtained.templateKey !== null) workspace.lastTemplateKey = obtained.templateKey;
  const base = {
    cycle: index,
    startedAt,
    frontier: { cluster: decision.cluster, reason: decision.reason, fallback: decision.fallback, saturated: decision.saturated, message: decision.message },
    tier,
    source: obtained.source,
    templateKey: obtained.templateKey,
    rejections: obtained.rejections,
  };
  const challenge = obtained.challenge;
  if (challenge === null) {
    return finish(workspace, options, { ...base, status: "no-challenge", challenge: null, attempts: [], abortedBy: null, duplicate: false, lessonsUsed: [], lesson: "not-tried", retired: [] });
  }

  // Solve: the playbook and journal reach the solver as read-only views.
  const playbookView = workspace.playbook.readonlyView();
  const domains = clusterDomains(challenge.cluster);
  const playbookBlock = playbookView.prompt(domains);
  const lessonsUsed = playbookView.entriesFor(domains).map((entry) => entry.id);
  const excerpts = workspace.journal
    .readonlyView()
    .runs.filter((run) => run.cluster === challenge.cluster)
    .slice(-(options.journalExcerpts ?? 3))
    .map((run) => `a ${run.cluster} challenge failed ${run.attempts} time(s): ${run.errorSummary}`);
  const samplerSeed = stream("solver").uint32();
  const solve = (block: string) =>
    solveChallenge({
      challenge,
      solver: options.solver,
      sandbox: options.sandbox,
      playbookBlock: block,
      journalExcerpts: excerpts,
      samplerSeed,
      ...(options.challengeWorkspace && { workspace: options.challengeWorkspace }),
    });
  const result = await solve(playbookBlock);
  const status: DreamCycleStatus = result.outcome.passed ? "passed" : result.abortedBy !== null ? "aborted" : "failed";

  // Journal: a failure the solver owns (an aborted cycle's challenge is broken, not hard: mining it would replay the break).
  if (status === "failed") {
    const last = result.attempts[result.attempts.length - 1];
    await workspace.journal.append({
      challenge: { hash: challenge.id, prompt: challenge.prompt, setup: challenge.setup, validator: challenge.validator, source: obtained.templateKey ?? challenge.source },
      cluster: challenge.cluster,
      errorSummary: last?.errorSummary ?? "",
      attempts: result.outcome.attemptsUsed,
      failedAt: options.now().toISOString(),
    });
  }

  // Lesson: after a struggled win, extract → guard → verify-helpful (same sampler seed, lesson added) → playbook.
  let lesson = "not-tried";
  if (result.outcome.passed && result.outcome.attemptsUsed >= 2 && result.winningSolution !== null) {
    lesson = await learn(options, challenge, result, playbookBlock, samplerSeed, solve, stream("lesson-judge"));
  }

  // Usage: the lessons in the prompt helped when the solve passed.
  const retired = lessonsUsed.length > 0 && status !== "aborted" ? (await workspace.playbook.recordUsage(lessonsUsed, result.outcome.passed)).map((entry) => entry.id) : [];

  // Frontier and PRM: the outcome (a re-roll still records, without mastery credit) and the labelled states.
  let duplicate = false;
  if (status !== "aborted") {
    const firstTry = result.outcome.passed && result.outcome.attemptsUsed === 1;
    duplicate = workspace.frontier.record({ cluster: challenge.cluster, firstAttemptRate: firstTry ? 1 : 0, successRate: result.outcome.passed ? 1 : 0, challengeHash: obtained.dedupHash ?? challenge.id }).duplicate;
    const examples = trajectoryExamples(challenge, result);
    await workspace.trajectories.appendMany(examples);
    workspace.trajectoryCounts[challenge.cluster] = (workspace.trajectoryCounts[challenge.cluster] ?? 0) + examples.length;
  }
  return finish(workspace, options, {
    ...base,
    status,
    challenge: { id: challenge.id, cluster: challenge.cluster, prompt: challenge.prompt },
    attempts: result.attempts,
    abortedBy: result.abortedBy,
    duplicate,
    lessonsUsed,
    lesson,
    retired,
  });
}

async function learn(
  options: DreamCycleOptions,
  challenge: Challenge,
  result: SolveResult,
  playbookBlock: string,
  samplerSeed: number,
  solve: (block: string) => Promise<SolveResult>,
  judgeStream: ReturnType<typeof deriveStream>,
): Promise<string> {
  try {
    const learned = await learnLesson({
      judge: options.judge ?? clientLessonJudge(options.client, judgeStream),
      input: {
        prompt: challenge.prompt,
        setup: challenge.setup,
        validator: challenge.validator,
        failedAttemptErrors: result.attempts.filter((attempt) => !attempt.passed).map((attempt) => attempt.errorSummary ?? ""),
        winningSolution: result.winningSolution ?? "",
        challengeHash: challenge.id,
      },
      original: result.outcome,
      samplerSeed,
      // The re-run differs from the original only by the lesson's block after the cluster's playbook block.
      rerun: async (request) => (await solve(`${playbookBlock}${request.playbookBlock}`)).outcome,
      playbook: options.workspace.playbook,
    });
    if (learned.status === "rejected") return `rejected:${learned.rejection.kind}`;
    if (learned.status === "dropped") return `dropped:${learned.verdict.reason}`;
    return "admitted";
  } catch (error) {
    const record = toErrorRecord(error);
    return `error:${record.name}: ${record.message}`.slice(0, 300);
  }
}

/**
 * The cycle's PRM states in the shape `selfplay prm train` reads: the empty
 * prefix labelled with the cycle's outcome, then each attempt's solution
 * labelled with whether it passed.
 */
function trajectoryExamples(challenge: Challenge, result: SolveResult): PrmExample[] {
  const task = challenge.prompt;
  return [
    { task, cluster: challenge.cluster, prefix: "", label: result.outcome.passed ? 1 : 0 },
    ...result.attempts.map((attempt) => ({ task, cluster: challenge.cluster, prefix: attempt.solution, label: attempt.passed ? 1 : 0 })),
  ];
}

async function finish(workspace: DreamWorkspace, options: DreamCycleOptions, record: Omit<DreamCycleRecord, "finishedAt">): Promise<DreamCycleRecord> {
  const full: DreamCycleRecord = { ...record, finishedAt: options.now().toISOString() };
  workspace.cycleCount++;
  await workspace.cycles.append(full);
  await workspace.saveState();
  return full;
}
