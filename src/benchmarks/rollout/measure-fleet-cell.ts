import { availableParallelism } from "node:os";
import { InvalidInputError } from "../../core/errors/index.js";
import { OpenAICompatibleClient } from "../../inference/server/openai-compatible-client.js";
import { LlamaCppToolError } from "../errors/index.js";
import { findLlamaCppTool } from "../llama-cpp/find-llama-cpp-tool.js";
import { launchLlamaServer, type LaunchedLlamaServer } from "../llama-cpp/launch-llama-server.js";
import type { LlamaCppRelease } from "../llama-cpp/llama-cpp-release.js";
import { arithmeticWorkload } from "./arithmetic-workload.js";
import { decodeRequestsOf, meanLengthsOf } from "./decode-request.js";
import { measureArenaRollouts } from "./measure-arena-rollouts.js";
import { measureClientRollouts } from "./measure-client-rollouts.js";
import type { FleetCell } from "./rollout-bench-result.js";

export interface FleetCellOptions {
  /** The bundled arithmetic base, served by every server. */
  modelPath: string;
  /** llama-server processes started for the cell. */
  servers: number;
  /** Sequences in flight across the fleet, split evenly across the servers' slots (a multiple of `servers`). */
  sequences: number;
  /** `--threads` of each server. */
  threadsPerServer: number;
  /** Proposer episodes a round, each with 4 solver sub-episodes. */
  proposals: number;
  /** Tokens of context per slot. */
  contextPerSequence: number;
  /** Timed rounds after one untimed warm-up; the fastest counts. */
  rounds: number;
  /** The in-process figure of the same workload and mode from the same run, and its threads. */
  inProcess: { tokensPerSecond: number; threads: number };
  /** Build llama-server if it is not built yet (minutes); when false a missing one makes the cell null with the reason. */
  buildTools: boolean;
  /** Which cache folder holds llama-server. Default: the bundled release's. */
  release?: LlamaCppRelease;
}

/** The cell, or null and why (llama-server missing, or it would not start). */
export type FleetMeasurement = { fleet: FleetCell; fleetReason?: never } | { fleet: null; fleetReason: string };

/**
 * The arithmetic workload through OpenAICompatibleClient over `servers`
 * llama-server processes in exact mode on 127.0.0.1: generated tokens per
 * second beside the in-process figure given and one measured here at the
 * fleet's total threads (while the servers, started, wait idle), and the
 * seconds to start the servers and to connect. The servers are stopped
 * before it returns.
 */
export async function measureFleetCell(options: FleetCellOptions): Promise<FleetMeasurement> {
  if (options.sequences % options.servers !== 0) throw new InvalidInputError("sequences", `a multiple of servers (${options.servers}), split evenly across their slots`, options.sequences);
  const slotsPerServer = options.sequences / options.servers;
  let servers: LaunchedLlamaServer[];
  let serverStartSeconds: number;
  try {
    const binary = await findLlamaCppTool("llama-server", { build: options.buildTools, ...(options.release && { release: options.release }) });
    const started = performance.now();
    servers = await launchAll(options.servers, () =>
      launchLlamaServer({ binary, modelPath: options.modelPath, slots: slotsPerServer, contextPerSlot: options.contextPerSequence, threads: options.threadsPerServer, exact: true }),
    );
    serverStartSeconds = (performance.now() - started) / 1000;
  } catch (error) {
    if (!(error instanceof LlamaCppToolError)) throw error;
    return { fleet: null, fleetReason: error.message };
  }
  try {
    const inProcessSameThreads = Math.round(
      (await measureArenaRollouts({
        engine: { modelPath: options.modelPath, sequences: options.sequences, threads: options.servers * options.threadsPerServer, mode: "exact", contextPerSequence: options.contextPerSequence },
        ...arithmeticWorkload(options.proposals, options.rounds),
      })).tokensPerSecond,
    );
    const connecting = performance.now();
    const client = await OpenAICompatibleClient.create({ endpoints: servers.map((server) => server.url), modelPath: options.modelPath });
    const connectSeconds = (performance.now() - connecting) / 1000;
    try {
      const measured = await measureClientRollouts(client, arithmeticWorkload(options.proposals, options.rounds));
      const ours = Math.round(measured.tokensPerSecond);
      const cores = availableParallelism();
      return {
        fleet: {
          shape: "arithmetic",
          preset: "arithmetic-base",
          mode: "exact",
          servers: options.servers,
          slotsPerServer,
          threadsPerServer: options.threadsPerServer,
          sequences: options.sequences,
          ...meanLengthsOf(decodeRequestsOf(measured.steps)),
          ours,
          inProcess: Math.round(options.inProcess.tokensPerSecond),
          inProcessThreads: options.inProcess.threads,
          ratioToInProcess: Number((ours / Math.round(options.inProcess.tokensPerSecond)).toFixed(3)),
          inProcessSameThreads,
          sameThreadsRatio: Number((ours / inProcessSameThreads).toFixed(3)),
          serverStartSeconds: Number(serverStartSeconds.toFixed(3)),
          connectSeconds: Number(connectSeconds.toFixed(3)),
          servedPerServer: servers.map((server) => client.endpoints().find((endpoint) => endpoint.url === server.url)?.served ?? 0),
          cores,
          note: contentionNote(options.servers, options.threadsPerServer, cores),
        },
      };
    } finally {
      await client.dispose();
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** Starts `count` servers together; when one fails, the others are stopped and its error is thrown. */
async function launchAll(count: number, launch: () => Promise<LaunchedLlamaServer>): Promise<LaunchedLlamaServer[]> {
  const outcomes = await Promise.allSettled(Array.from({ length: count }, launch));
  const launched = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
  const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
  if (failure === undefined) return launched;
  await Promise.all(launched.map((server) => server.stop()));
  throw failure.reason;
}

/** What the fleet figure says on this machine: servers and this process on too few cores compete, so it is a cost, not a speed-up. */
export function contentionNote(servers: number, threadsPerServer: number, cores: number): string {
  const threads = servers * threadsPerServer;
  const layout = `${servers} llama-server processes × ${threadsPerServer} thread(s) and this process (arena, HTTP client) on ${cores} core(s)`;
  const ratios =
    `ratioToInProcess sets the fleet's ${threads} decode threads against the in-process cell's; sameThreadsRatio against ${threads} in process, ` +
    `which leaves the HTTP client's and the fleet's cost together with the difference between llama.cpp builds (llama-server's for this CPU, the engine's library) ` +
    `and between ${servers} decodes of ${threadsPerServer} thread(s) and one of ${threads}`;
  if (cores < threads + 1) {
    return `${layout}: they compete for the cores, so neither ratio is a speed-up; ${ratios}; servers on machines of their own add each machine's throughput, which this does not measure`;
  }
  return `${layout}: each has a core of its own, but it is one machine, not a fleet of them; ${ratios}`;
}
