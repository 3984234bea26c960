import { readFileSync } from "node:fs";
import type { ReplayOptions } from "./decode-request.js";
import { replayOnNodeLlamaCpp } from "./replay-on-node-llama-cpp.js";

// The child process of measureNodeLlamaCppLoop: ReplayOptions as JSON on stdin, `{"tokensPerSecond": n}` on stdout.
const options = JSON.parse(readFileSync(0, "utf8")) as ReplayOptions;
process.stdout.write(`${JSON.stringify({ tokensPerSecond: await replayOnNodeLlamaCpp(options) })}\n`);
