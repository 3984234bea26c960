import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { createServer } from "node:net";
import { LlamaCppToolError } from "../errors/index.js";

export interface LlamaServerLaunchOptions {
  /** The llama-server executable (`findLlamaCppTool("llama-server", …)`). */
  binary: string;
  /** The GGUF to serve (single-model mode)… */
  modelPath?: string;
  /** A LoRA adapter over `modelPath` (`--lora`): a single-model server takes new weights only by a restart with another. */
  loraPath?: string;
  /** …or the `--models-preset` file of router mode, where policy versions are presets loaded on request. */
  presetFile?: string;
  /** Sequences decoded together (`--parallel`). */
  slots: number;
  /** Tokens of context each slot gets. */
  contextPerSlot: number;
  threads: number;
  /** f32 KV cache and no flash attention: logprobs within ~1e-6 of selfplay's engine in exact mode. */
  exact: boolean;
  /** Default: a free port on 127.0.0.1. */
  port?: number;
  apiKey?: string;
  /** Where the server's output goes (appended); default: discarded. */
  logFile?: string;
  /** How long to wait for `/health`; default 120 s (a router's first model load included). */
  startTimeoutMilliseconds?: number;
}

/** A running llama-server process. */
export interface LaunchedLlamaServer {
  url: string;
  process: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal) once the process has ended. */
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after 5 s; resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts llama-server on 127.0.0.1 and waits until `/health` answers. In
 * router mode the exactness flags are given to the router: its model
 * instances inherit its command line.
 */
export async function launchLlamaServer(options: LlamaServerLaunchOptions): Promise<LaunchedLlamaServer> {
  if ((options.modelPath === undefined) === (options.presetFile === undefined)) {
    throw new LlamaCppToolError("llama-server", "a launch needs exactly one of modelPath (one model) and presetFile (router mode)");
  }
  const port = options.port ?? (await freePort());
  const args = [
    ...(options.modelPath !== undefined ? ["--model", options.modelPath] : ["--models-preset", options.presetFile as string]),
    ...(options.loraPath !== undefined ? ["--lora", options.loraPath] : []),
    "--host", "127.0.0.1",
    "--port", String(port),
    "--parallel", String(options.slots),
    "--ctx-size", String(options.slots * options.contextPerSlot),
    "--threads", String(options.threads),
    "--threads-batch", String(options.threads),
    "--no-webui",
    ...(options.exact ? ["--flash-attn", "off", "--cache-type-k", "f32", "--cache-type-v", "f32"] : []),
    ...(options.apiKey !== undefined ? ["--api-key", options.apiKey] : []),
  ];
  const child = spawn(options.binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  if (options.logFile !== undefined) {
    const log = createWriteStream(options.logFile, { flags: "a" });
    child.stdout.pipe(log);
    child.stderr.pipe(log);
  } else {
    child.stdout.resume();
    child.stderr.resume();
  }
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitForHealth(url, options.apiKey, exited, options.startTimeoutMilliseconds ?? 120_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, process: child, exited, stop };
}

async function waitForHealth(url: string, apiKey: string | undefined, exited: Promise<number | null>, timeoutMilliseconds: number): Promise<void> {
  const deadline = Date.now() + timeoutMilliseconds;
  let ended: number | null | undefined;
  void exited.then((code) => (ended = code));
  for (;;) {
    if (ended !== undefined) throw new LlamaCppToolError("llama-server", `exited (code ${ended}) before it answered ${url}/health; run it by hand to see why`);
    try {
      const response = await fetch(`${url}/health`, { ...(apiKey !== undefined && { headers: { authorization: `Bearer ${apiKey}` } }), signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new LlamaCppToolError("llama-server", `${url}/health did not answer within ${timeoutMilliseconds / 1000} s`);
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

/** A port nothing listens on now: the OS picks one for a listener that is closed at once. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
