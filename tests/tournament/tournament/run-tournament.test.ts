import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HonestAgent } from "../../../src/tournament/agents/honest-agent.js";
import { CAPTURE_OBJECTIVES } from "../../../src/tournament/detectors/capture-objectives.js";
import { parseKernel } from "../../../src/tournament/kernel/load-kernel.js";
import { replayTranscript } from "../../../src/tournament/replay/replay-transcript.js";
import { searchRedTeam } from "../../../src/tournament/search/search-red-team.js";
import { episodeWorldSeed } from "../../../src/tournament/tournament/episode-world-seed.js";
import { formatTournamentReport } from "../../../src/tournament/tournament/format-tournament-report.js";
import { runTournament } from "../../../src/tournament/tournament/run-tournament.js";
import type { TournamentAgentFactory } from "../../../src/tournament/tournament/tournament-agent-factory.js";
import { defaultRoster } from "../../../src/tournament/tournament/tournament-roster.js";
import { ChainingRedAgent } from "./chaining-red-agent.js";

const kernel010 = parseKernel(readFileSync("constitutions/constitution-0.1.0.yaml", "utf8"), "constitution-0.1.0.yaml");
const kernel020 = parseKernel(readFileSync("constitutions/constitution-0.2.0.yaml", "utf8"), "constitution-0.2.0.yaml");

/** Honest seats play HonestAgent; red seats the chaining test double. */
const chainingFactory: TournamentAgentFactory = (seat) => (seat.roster.redTeam.includes(seat.citizen) ? new ChainingRedAgent(seat.roster.redTeam) : new HonestAgent(seat.stream));

describe("defaultRoster", () => {
  it("rotates the four objectives and puts two faction-f0 citizens on the red team", () => {
    const roster = defaultRoster();
    const world = { numCitizens: 7, initialTreasury: 1000, factions: 2, seed: 0 };
    expect([0, 1, 2, 3, 4].map((index) => roster(index, world).objective)).toEqual([...CAPTURE_OBJECTIVES, CAPTURE_OBJECTIVES[0]]);
    expect(roster(0, world)).toEqual({ redTeam: ["c0", "c2"], objective: "treasury-drain", policy: "scripted" });
    expect(roster(0, { ...world, factions: 7 }).redTeam).toEqual(["c0", "c1"]);
    expect(defaultRoster({ redCitizens: 0 })(3, world)).toEqual({ redTeam: [], objective: null, policy: null });
  });
});

describe("runTournament", () => {
  it("derives each episode's world seed from the tournament seed and index", async () => {
    const { episodes } = await runTournament({ kernel: kernel010, seed: 5, episodes: 3, rounds: 2, roster: defaultRoster({ redCitizens: 0 }) });
    expect(episodes.map((episode) => episode.world.seed)).toEqual([0, 1, 2].map((index) => episodeWorldSeed(5, index)));
    expect(new Set(episodes.map((episode) => episode.world.seed)).size).toBe(3);
  });

  it("gives the same report, byte for byte, for the same seed, and another for another seed", async () => {
    const options = { kernel: kernel010, episodes: 4, rounds: 12, agents: chainingFactory };
    const first = JSON.stringify((await runTournament({ ...options, seed: 11 })).report);
    const second = JSON.stringify((await runTournament({ ...options, seed: 11 })).report);
    const other = JSON.stringify((await runTournament({ ...options, seed: 12 })).report);
    expect(second).toBe(first);
    expect(other).not.toBe(first);
  });

  it("replays every episode's transcript to its event-log hash", async () => {
    const { episodes } = await runTournament({ kernel: kernel010, seed: 3, episodes: 2, rounds: 10, agents: chainingFactory });
    for (const episode of episodes) expect(replayTranscript(episode.transcript, kernel010).eventLogHash).toBe(episode.eventLogHash);
  });

  it("reports the chained-emergency findings under 0.1.0 by objective, and none under 0.2.0", async () => {
    const options = { seed: 7, episodes: 4, rounds: 12, agents: chainingFactory };
    const { report } = await runTournament({ ...options, kernel: kernel010 });
    expect(report.findingsByObjective["emergency-overstay"].length).toBeGreaterThan(0);
    expect(report.findingsByObjective["exit-blocking"].some((finding) => finding.pursued)).toBe(true);
    expect(Object.keys(report.findingsByObjective)).toEqual([...CAPTURE_OBJECTIVES]);
    const closed = (await runTournament({ ...options, kernel: kernel020 })).report;
    expect(closed.findingsByObjective["emergency-overstay"]).toEqual([]);
    expect(closed.findingsByObjective["exit-blocking"]).toEqual([]);
    // The refused redeclarations are counted under the emergency article.
    expect(closed.rejectedByArticle["Art. 6"]).toBeGreaterThan(0);
  });

  it("ranks episodes worst-off first, ties by index, and keeps wall-clock time out of the report", async () => {
    const { report } = await runTournament({ kernel: kernel010, seed: 2, episodes: 4, rounds: 8, agents: chainingFactory });
    const ranked = report.ranking.map((entry) => entry.worstOffHonestWelfare);
    expect(ranked).toEqual([...ranked].sort((a, b) => b - a));
    expect(report.ranking.map((entry) => entry.rank)).toEqual([1, 2, 3, 4]);
    const text = JSON.stringify(report) + formatTournamentReport(report);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T|seconds|elapsed|duration/i);
    expect(formatTournamentReport(report)).toContain("## Ranking (worst-off first)");
  });

  it("plays red seats with the objective's scripted policy by default", async () => {
    const { episodes } = await runTournament({ kernel: kernel010, seed: 0, episodes: 4, rounds: 3 });
    expect(episodes.map((episode) => [episode.agents["c0"], episode.agents["c2"], episode.agents["c1"]])).toEqual(CAPTURE_OBJECTIVES.map((objective) => [`red:${objective}`, `red:${objective}`, "honest"]));
  });

  it("lets the search red team play a search roster: it finds the chained emergency under 0.1.0, not under 0.2.0", async () => {
    const options = { seed: 1, episodes: 1, rounds: 6, roster: defaultRoster({ policy: "search", objectives: ["emergency-overstay"] }), searchNodeBudget: 8000 };
    const open = await runTournament({ ...options, kernel: kernel010 });
    const [episode] = open.episodes;
    expect(episode?.agents["c0"]).toBe("search:emergency-overstay");
    expect(episode?.search).toMatchObject({ found: true });
    expect(open.report.findingsByObjective["emergency-overstay"]).toEqual([expect.objectContaining({ episode: 0, pursued: true })]);
    // The search chose the first rounds' red moves; the episode still lasts `rounds` rounds.
    expect(episode?.search?.roundsSearched).toBeLessThan(6);
    expect(episode?.state.round).toBe(6);
    // The episode begins with the searched transcript exactly (same world, same honest streams).
    const searched = searchRedTeam({ kernel: kernel010, objective: "emergency-overstay", redTeam: ["c0", "c2"], seed: 1, world: episode?.world, episodeIndex: 0, maxRounds: 6, nodeBudget: 8000 });
    expect(episode?.transcript.actions.slice(0, searched.transcript.actions.length)).toEqual(searched.transcript.actions);
    expect(episode?.transcript.actions.length).toBeGreaterThan(searched.transcript.actions.length);
    expect(replayTranscript(episode?.transcript as NonNullable<typeof episode>["transcript"], kernel010).eventLogHash).toBe(episode?.eventLogHash);
    const closed = await runTournament({ ...options, kernel: kernel020 });
    expect(closed.episodes[0]?.search).toMatchObject({ found: false });
    expect(closed.report.findingsByObjective["emergency-overstay"]).toEqual([]);
  });
});
