import { spawn } from "node:child_process";
import { z } from "zod";
import { compiledSiblingFile } from "../../arena/pool/compiled-module-url.js";
import { BenchmarkMismatchError } from "../errors/index.js";
import type { ReplayOptions } from "./decode-request.js";

const ChildResultSchema = z.object({ tokensPerSecond: z.number().positive() });

/**
 * node-llama-cpp's plain evaluate loop (`replayOnNodeLlamaCpp`), measured in
 * a process of its own, as llama.cpp's tool is. node-llama-cpp decodes on
 * libuv's worker threads; with a llama.cpp built with OpenMP each of them
 * starts a team of threads, and once a process holds more OpenMP threads
 * than CPUs libgomp spins only ~100 rounds at a barrier before sleeping —
 * every measurement after it in the same process would run throttled.
 * Returns generated tokens per second.
 */
export function measureNodeLlamaCppLoop(options: ReplayOptions): Promise<number> {
  const child = spawn(process.execPath, [compiledSiblingFile(import.meta.url, "node-llama-cpp-loop-process")], { stdio: ["pipe", "pipe", "pipe"] });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  child.stdin.end(JSON.stringify(options));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const lastLine = (chunks: Buffer[]) => Buffer.concat(chunks).toString("utf8").trim().split("\n").at(-1) ?? "";
      const parsed = code === 0 ? ChildResultSchema.safeParse(parseJson(lastLine(stdout))) : undefined;
      if (parsed?.success) resolve(parsed.data.tokensPerSecond);
      else reject(new BenchmarkMismatchError(`node-llama-cpp's loop failed in its process (exit ${code}): ${lastLine(stderr) || lastLine(stdout)}`));
    });
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
