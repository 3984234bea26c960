import type { ChallengeTemplate } from "../challenge-template.js";
import { fixtureSetupSource } from "../fixture-setup-source.js";
import { jsonVerdictSource } from "../json-verdict-source.js";

const BASE_JOBS = 8;

/** What Promise.allSettled reports after retries; hard mode: a per-call timeout that is not retried. */
export const retrySummaryTemplate: ChallengeTemplate = {
  key: "promise-concurrency/retry-summary",
  cluster: "promise-concurrency",
  render({ sizeMultiplier, hardMode, stream }) {
    const retries = 1 + stream.integer(3);
    const timeoutMs = 100;
    const jobs = Array.from({ length: BASE_JOBS * sizeMultiplier }, (_, index) => ({
      id: `task-${String(index + 1).padStart(2, "0")}`,
      failures: stream.integer(retries + 3),
      value: 1 + stream.integer(50),
      durationMs: 10 * (1 + stream.integer(hardMode ? 15 : 9)),
    }));
    const twist = hardMode
      ? ` Each call also has a ${timeoutMs} ms timeout: a job whose durationMs is over ${timeoutMs} times out on its first call, is rejected and is not retried (1 call).`
      : "";
    return {
      prompt: `jobs.json is an array of {"id", "failures", "value", "durationMs"}: each call of a job rejects while it has failed fewer than "failures" times, then resolves with "value". Each job is retried up to ${retries} times after its first call (so at most ${retries + 1} calls) and the jobs are settled with Promise.allSettled.${twist} Write summary.json: {"fulfilled": ids of the jobs that resolved, sorted, "rejected": ids of the rest, sorted, "total": the sum of the fulfilled values, "calls": the number of calls made in all}.`,
      setup: fixtureSetupSource({ "jobs.json": JSON.stringify(jobs, null, 2) }),
      validator: `const fs = require("fs");
const jobs = JSON.parse(fs.readFileSync("jobs.json", "utf8"));
const retries = ${retries};
const timeoutMs = ${hardMode ? timeoutMs : "Infinity"};
const expected = { fulfilled: [], rejected: [], total: 0, calls: 0 };
for (const job of jobs) {
  if (job.durationMs > timeoutMs) {
    expected.rejected.push(job.id);
    expected.calls += 1;
  } else if (job.failures <= retries) {
    expected.fulfilled.push(job.id);
    expected.total += job.value;
    expected.calls += job.failures + 1;
  } else {
    expected.rejected.push(job.id);
    expected.calls += retries + 1;
  }
}
expected.fulfilled.sort();
expected.rejected.sort();
${jsonVerdictSource("summary.json")}`,
      outputFile: "summary.json",
      referenceSolution: `const fs = require("fs");
const jobs = JSON.parse(fs.readFileSync("jobs.json", "utf8"));
const RETRIES = ${retries};
const TIMEOUT = ${hardMode ? timeoutMs : "Infinity"};
let calls = 0;
function makeCall(job, state) {
  return () => {
    calls++;
    if (job.durationMs > TIMEOUT) return Promise.reject(Object.assign(new Error("timeout"), { timeout: true }));
    if (state.failed < job.failures) { state.failed++; return Promise.reject(new Error("failed")); }
    return Promise.resolve(job.value);
  };
}
async function withRetries(call) {
  for (let attempt = 0; ; attempt++) {
    try { return await call(); } catch (error) { if (error.timeout || attempt === RETRIES) throw error; }
  }
}
Promise.allSettled(jobs.map((job) => withRetries(makeCall(job, { failed: 0 })))).then((results) => {
  const summary = { fulfilled: [], rejected: [], total: 0, calls };
  results.forEach((result, i) => {
    if (result.status === "fulfilled") { summary.fulfilled.push(jobs[i].id); summary.total += result.value; }
    else summary.rejected.push(jobs[i].id);
  });
  summary.fulfilled.sort();
  summary.rejected.sort();
  fs.writeFileSync("summary.json", JSON.stringify(summary));
});
`,
    };
  },
};
