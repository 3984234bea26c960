import { LlamaCppToolError } from "../errors/index.js";

// `0.01.156.594 I epoch 0 lr=0.0001`: llama.cpp's log timestamp (minutes.seconds.milliseconds.microseconds since
// start, common/log.cpp), logged by the learning-rate callback as each optimizer step begins (ggml_opt_eval).
const STEP_START = /^(\d+)\.(\d{2})\.(\d{3})\.(\d{3}) I epoch \S+ lr=/;

/** When each of llama-finetune's optimizer steps began, in seconds since it started, in order. */
export function finetuneStepStarts(output: string): number[] {
  const starts: number[] = [];
  for (const line of output.split(/[\r\n]/)) {
    const match = STEP_START.exec(line);
    if (match === null) continue;
    const [minutes, seconds, milliseconds, microseconds] = match.slice(1).map(Number) as [number, number, number, number];
    starts.push(60 * minutes + seconds + milliseconds / 1e3 + microseconds / 1e6);
  }
  return starts;
}

/**
 * Training tokens per second from the steps' start times: whole steps between
 * the second start and the last, so start-up and the first step's warm-up are
 * left out, as the tfjs side leaves out its warm-up step. Needs 3 steps at least.
 */
export function finetuneTokensPerSecond(output: string, tokensPerStep: number): number {
  const starts = finetuneStepStarts(output);
  const second = starts[1];
  const last = starts.at(-1);
  if (starts.length < 3 || second === undefined || last === undefined || last <= second) {
    throw new LlamaCppToolError("llama-finetune", `logged ${starts.length} optimizer step(s) with timestamps; timing needs 3 or more (give it more data, keep --log-timestamps on)`);
  }
  return ((starts.length - 2) * tokensPerStep) / (last - second);
}
