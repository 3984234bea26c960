import { existsSync } from "node:fs";
import { join } from "node:path";
import { Option, type Command } from "commander";
import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";
import { MAX_SEED } from "../../core/schemas/sampler-settings.js";
import { createChallengeSandbox } from "../../dream/challenges/create-challenge-sandbox.js";
import type { DreamCycleRecord } from "../../dream/cycle/dream-cycle-record.js";
import { DreamStopSignals } from "../../dream/cycle/dream-stop-signals.js";
import { DREAM_FILES, DreamWorkspace } from "../../dream/cycle/dream-workspace.js";
import { runDreamCycle } from "../../dream/cycle/run-dream-cycle.js";
import { runDreamLoop } from "../../dream/cycle/run-dream-loop.js";
import { clientDreamSolver } from "../../dream/solver/dream-solver.js";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { bundledArithmeticBase } from "../../inference/model-files/bundled-models.js";
import { EXIT } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { integerFlag, numberFlag } from "../flag-schemas.js";
import { announceDevice, DEVICE_FLAG, deviceOption } from "../device-flag.js";
import { parseOptions } from "../parse-options.js";
import { ALLOW_MISSING_FLAG, allowMissingOption } from "./sandbox-command.js";

export const DreamCommandOptionsSchema = z
  .object({
    /** Run exactly one cycle (the manual trigger). */
    once: z.boolean().default(false),
    /** Cycle until SIGINT, `<out>/STOP` or a new line in `<out>/dream_inbox.md`. */
    loop: z.boolean().default(false),
    /** Output folder; default `runs/dream` (a later run continues its playbook, journal and frontier). */
    out: z.string().min(1, "a folder path").default(join("runs", "dream")),
    /** GGUF model for the solver, the generator and the lesson judge; default the bundled base. */
    model: z.string().min(1, "a GGUF file path").optional(),
    seed: integerFlag(0, MAX_SEED).default(0),
    /** Idle minutes before each cycle (`--loop` only). */
    idleAfter: numberFlag(0, 10_080).optional(),
    /** A file whose modification marks host activity, for `--idle-after`. */
    activityFile: z.string().min(1, "a file path").optional(),
    json: z.boolean().default(false),
    /** Sandbox protections the cycles' programs may run without where this machine cannot give them (`selfplay sandbox run --allow-missing`). */
    allowMissing: ALLOW_MISSING_FLAG,
    ...DEVICE_FLAG,
  })
  .refine((options) => options.once !== options.loop, { message: "exactly one of --once or --loop", path: ["once"] })
  .refine((options) => options.idleAfter === undefined || options.loop, { message: "--idle-after only with --loop", path: ["idleAfter"] })
  .refine((options) => options.activityFile === undefined || options.idleAfter !== undefined, { message: "--activity-file only with --idle-after", path: ["activityFile"] });
export type DreamCommandOptions = z.infer<typeof DreamCommandOptionsSchema>;

/**
 * Context the engine gets: a solver prompt holds the task, the playbook, journal
 * excerpts and earlier errors, and the answer is a whole program (768 tokens);
 * the generator's answer is three programs (1024).
 */
const DREAM_CONTEXT_SIZE = 8192;

/** Seconds → milliseconds, resolved early when the process is told to stop. */
function sleeper(signal: AbortSignal): (milliseconds: number) => Promise<void> {
  return (milliseconds) =>
    new Promise((resolve) => {
      const timer = setTimeout(done, milliseconds);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
      signal.addEventListener("abort", done, { once: true });
    });
}

function describeCycle(record: DreamCycleRecord): string {
  const challenge = record.challenge === null ? "no challenge passed the gates" : `${record.challenge.cluster} ${record.tier} (${record.source}${record.templateKey === null ? "" : ` ${record.templateKey}`})`;
  const attempts = record.attempts.length === 0 ? "" : `, ${record.attempts.length} attempt(s)`;
  const rejected = record.rejections.length === 0 ? "" : `, ${record.rejections.length} rejected (${record.rejections.map((rejection) => rejection.kind).join(", ")})`;
  return `cycle ${record.cycle}: ${record.status} — ${challenge}${attempts}${rejected}; lesson ${record.lesson}`;
}

/**
 * `selfplay dream`: the dream cycle's triggers. `--once` runs one cycle;
 * `--loop` runs cycles with the frontier's adaptive cooldown until SIGINT,
 * `<out>/STOP` or a line appended to `<out>/dream_inbox.md`. Writes
 * cycles.jsonl, playbook.json, journal.jsonl, frontier.json and
 * trajectories.jsonl (PRM states) under `--out`. Exit 0 when the cycles ran
 * (a failed challenge is a result), 2 on bad flags or a missing model.
 */
export async function dreamCommand(rawOptions: unknown, context: CommandContext, signal: AbortSignal = new AbortController().signal): Promise<number> {
  const { io } = context;
  const options = parseOptions(DreamCommandOptionsSchema, rawOptions);
  if (options.model !== undefined && !existsSync(options.model)) throw new InvalidInputError("--model", "an existing GGUF file (check the path)", options.model);
  const now = context.now;
  const workspace = await DreamWorkspace.open(options.out, { seed: options.seed, now, log: (message) => !options.json && io.stderr(`frontier: ${message}\n`) });
  const client = await LlamaInferenceClient.create({ modelPath: options.model ?? bundledArithmeticBase(), contextSize: DREAM_CONTEXT_SIZE, device: options.device });
  announceDevice(io, client);
  try {
    const sandbox = createChallengeSandbox({ allowMissing: options.allowMissing });
    const solver = clientDreamSolver(client);
    const stopSignals = await DreamStopSignals.watch({ signal, stopFile: workspace.path("stop"), inboxFile: workspace.path("inbox") });
    const result = await runDreamLoop({
      runCycle: () => runDreamCycle({ workspace, client, solver, sandbox, seed: options.seed, now }),
      cooldownSeconds: () => workspace.frontier.adaptiveCooldownSeconds(),
      stopSignals,
      sleep: sleeper(signal),
      // The cooldown and idle waits are real time even when the records' clock is fixed (tests pin context.now).
      now: () => new Date(),
      ...(options.once && { maxCycles: 1 }),
      ...(options.idleAfter !== undefined && { idle: { afterMinutes: options.idleAfter, ...(options.activityFile !== undefined && { activityFile: options.activityFile }) } }),
      onCycle: (record, cooldown) => {
        if (options.json) return;
        io.stdout(`${describeCycle(record)}\n`);
        if (cooldown !== null) io.stderr(`resting ${cooldown} s (stop: Ctrl-C, touch ${workspace.path("stop")} or add a line to ${workspace.path("inbox")})\n`);
      },
    });
    if (options.json) {
      io.stdout(`${JSON.stringify({ out: options.out, stoppedBy: result.stoppedBy, cycles: result.cycles, files: DREAM_FILES })}\n`);
    } else {
      io.stdout(`${result.cycles.length} cycle(s), stopped by ${result.stoppedBy}; records in ${workspace.path("cycles")}\n`);
    }
    return EXIT.ok;
  } finally {
    await workspace.close();
    await client.dispose();
  }
}

export function registerDreamCommand(program: Command, context: CommandContext): void {
  program
    .command("dream")
    .description("Dream cycles: self-generated JavaScript challenges in the sandbox, the quality gates, lessons that earn their place in a playbook.")
    .addOption(new Option("--once", "run one cycle"))
    .addOption(new Option("--loop", "cycle with the adaptive cooldown (5-180 s) until Ctrl-C, <out>/STOP or a new line in <out>/dream_inbox.md"))
    .addOption(new Option("--out <dir>", "output folder (cycles.jsonl, playbook.json, journal.jsonl, frontier.json, trajectories.jsonl); a later run continues it").default(join("runs", "dream")))
    .addOption(new Option("--model <file>", "GGUF model for the solver, generator and lesson judge (default: the bundled base, whose JavaScript fails — a valid failed cycle)"))
    .addOption(deviceOption())
    .addOption(allowMissingOption())
    .addOption(new Option("--seed <n>", "run seed, an integer from 0 to 4294967295").default("0"))
    .addOption(new Option("--idle-after <minutes>", "with --loop: start each cycle only after this many idle minutes (no change to --activity-file, or since start without one)"))
    .addOption(new Option("--activity-file <file>", "with --idle-after: a file the host touches when busy"))
    .addOption(new Option("--json", "print {out, stoppedBy, cycles, files} as one JSON object"))
    .action(async (flags: Record<string, unknown>) => {
      const controller = new AbortController();
      const onSigint = () => controller.abort();
      process.once("SIGINT", onSigint);
      try {
        context.setExitCode(await dreamCommand(flags, context, controller.signal));
      } finally {
        process.off("SIGINT", onSigint);
      }
    });
}
