import type { ChallengeTemplate } from "../challenge-template.js";
import { fixtureSetupSource } from "../fixture-setup-source.js";
import { jsonVerdictSource } from "../json-verdict-source.js";

const BASE_JOBS = 6;

/**
 * The completion order of a promise pool, on a virtual clock so the answer is
 * exact (real timers would make the order depend on the machine's load);
 * hard mode: a concurrency limit.
 */
export const poolOrderTemplate: ChallengeTemplate = {
  key: "promise-concurrency/pool-order",
  cluster: "promise-concurrency",
  render({ sizeMultiplier, hardMode, stream }) {
    const jobs = Array.from({ length: BASE_JOBS * sizeMultiplier }, (_, index) => ({ id: `job-${index + 1}`, durationMs: 10 * (1 + stream.integer(12)) }));
    const limit = hardMode ? 2 + stream.integer(2) : jobs.length;
    const rule = hardMode
      ? `at most ${limit} jobs run at once: jobs start in list order, each as soon as a slot is free (a slot freed at time t is taken at time t)`
      : "every job starts at time 0 (Promise.all over all of them)";
    return {
      prompt: `jobs.json is an array of {"id", "durationMs"}. Simulate running them as promises on a virtual clock where ${rule}; a job ends durationMs after it starts. Write order.json: {"order": the ids in the order the jobs finish (jobs finishing at the same time: earlier in the list first), "totalMs": when the last job finishes}.`,
      setup: fixtureSetupSource({ "jobs.json": JSON.stringify(jobs, null, 2) }),
      validator: `const fs = require("fs");
const jobs = JSON.parse(fs.readFileSync("jobs.json", "utf8"));
const limit = ${limit};
const slots = new Array(Math.min(limit, jobs.length)).fill(0);
const finished = jobs.map((job, index) => {
  let slot = 0;
  for (let candidate = 1; candidate < slots.length; candidate++) if (slots[candidate] < slots[slot]) slot = candidate;
  slots[slot] += job.durationMs;
  return { id: job.id, index, end: slots[slot] };
});
finished.sort((a, b) => a.end - b.end || a.index - b.index);
const expected = { order: finished.map((job) => job.id), totalMs: Math.max(...finished.map((job) => job.end)) };
${jsonVerdictSource("order.json")}`,
      outputFile: "order.json",
      referenceSolution: `const fs = require("fs");
const jobs = JSON.parse(fs.readFileSync("jobs.json", "utf8"));
const limit = ${limit};
// A virtual clock: a priority list of timers, advanced to the earliest one each tick.
let now = 0;
const timers = [];
const sleep = (ms, seq) => new Promise((resolve) => timers.push({ at: now + ms, seq, resolve }));
const order = [];
async function runJob(job, index) {
  await sleep(job.durationMs, index);
  order.push(job.id);
}
async function pool() {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, jobs.length) }, async () => {
    while (next < jobs.length) {
      const index = next++;
      await runJob(jobs[index], index);
    }
  });
  await Promise.all(workers);
}
async function main() {
  const done = pool();
  let finished = false;
  done.then(() => (finished = true));
  while (!finished) {
    await new Promise((resolve) => setImmediate(resolve));
    if (timers.length === 0) continue;
    timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const timer = timers.shift();
    now = timer.at;
    timer.resolve();
  }
  fs.writeFileSync("order.json", JSON.stringify({ order, totalMs: now }));
}
main();
`,
    };
  },
};
