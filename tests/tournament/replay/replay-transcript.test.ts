import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { deriveStream, type RandomStream } from "../../../src/core/random/random-stream.js";
import { KernelVersionMismatchError, UnknownActionError } from "../../../src/tournament/errors/index.js";
import { parseKernel } from "../../../src/tournament/kernel/load-kernel.js";
import { canonicalJson } from "../../../src/tournament/replay/canonical-json.js";
import { replayTranscript } from "../../../src/tournament/replay/replay-transcript.js";
import { parseTranscript, type Transcript } from "../../../src/tournament/replay/transcript.js";
import type { Action } from "../../../src/tournament/world/actions.js";
import { TournamentWorld } from "../../../src/tournament/world/tournament-world.js";

const kernelText = (version: string) => readFileSync(resolve(import.meta.dirname, `../../../constitutions/constitution-${version}.yaml`), "utf8");
const kernel010 = parseKernel(kernelText("0.1.0"), "0.1.0");
const kernel020 = parseKernel(kernelText("0.2.0"), "0.2.0");

/** Any action by any citizen, legal or not: a random transcript, not a policy. */
function randomAction(stream: RandomStream, environment: TournamentWorld): Action {
  // Mostly the citizen on turn, sometimes another (a turn-order rejection).
  const actor = stream.integer(6) === 0 ? `c${stream.integer(environment.config.numCitizens)}` : (environment.actorOnTurn ?? "c0");
  const proposalId = `p${stream.integer(Math.max(1, environment.state.proposals.length + 1))}`;
  switch (stream.integer(8)) {
    case 0:
      return { type: "ProposeSpend", actor, amount: 1 + stream.integer(200), recipient: `c${stream.integer(environment.config.numCitizens)}`, memo: "" };
    case 1:
      return { type: "ProposeAmendment", actor, changes: stream.integer(2) === 0 ? { quorumPercent: 10 + stream.integer(90) } : { emergencyMaxRounds: 9 } };
    case 2:
    case 3:
      return { type: "Vote", actor, proposalId, support: stream.integer(2) === 0 };
    case 4:
      return { type: "DeclareEmergency", actor, reason: "" };
    case 5:
      return { type: "EndEmergency", actor };
    case 6:
      return stream.integer(4) === 0 ? { type: "Exit", actor } : { type: "Pass", actor };
    default:
      return { type: "Pass", actor };
  }
}

function randomTranscript(seed: number, length: number): Transcript {
  const stream = deriveStream(seed, "replay-test");
  const environment = new TournamentWorld(kernel010, { seed, numCitizens: 3 + stream.integer(6) });
  for (let index = 0; index < length && environment.actorOnTurn !== null; index++) environment.step(randomAction(stream, environment));
  return { kernelVersion: "0.1.0", world: environment.config, actions: [...environment.submissions] };
}

/** Submissions that are no action, as a caller of the typed API can hand them to `step`: JSON that is no action, and values JSON cannot hold. */
function malformedSubmission(stream: RandomStream, actor: string): unknown {
  const cycle: Record<string, unknown> = { type: "Vote", actor };
  cycle.proposalId = cycle;
  const submissions: unknown[] = [
    JSON.parse(`{"type":"ProposeAmendment","actor":"${actor}","changes":{"valueOf":null,"maxSpendPercentOfTreasury":null}}`),
    JSON.parse(`{"type":"ProposeAmendment","actor":"${actor}","changes":{"__proto__":{"quorumPercent":1}}}`),
    { type: "ProposeSpend", actor, amount: -5, recipient: actor, constructor: 1 },
    { type: "Seize", actor },
    null,
    [actor, 3],
    "Pass",
    { type: "ProposeSpend", actor, amount: Number.NaN, recipient: actor },
    { type: "Pass", actor: 7n },
    cycle,
    undefined,
  ];
  return submissions[stream.integer(submissions.length)];
}

describe("replayTranscript", () => {
  it("depends only on (transcript, kernel text): the same pair gives the same log hash, through JSON and a fresh kernel", () => {
    for (let seed = 0; seed < 50; seed++) {
      const transcript = randomTranscript(seed, 120);
      const first = replayTranscript(transcript, kernel010);
      const throughJson = parseTranscript(JSON.parse(JSON.stringify(transcript)), "t");
      const again = replayTranscript(throughJson, parseKernel(kernelText("0.1.0"), "again"));
      expect(again.eventLogHash).toBe(first.eventLogHash);
      expect(again.rejected).toBe(first.rejected);
      expect(first.events.filter((event) => event.type === "rejected")).toHaveLength(first.rejected);
    }
  });

  it("a rejected submission changes nothing: dropping it gives the same log less its rejected events (what shrinking relies on)", () => {
    let rejectedSeen = 0;
    for (let seed = 0; seed < 100; seed++) {
      const transcript = randomTranscript(seed, 150);
      const full = replayTranscript(transcript, kernel010);
      rejectedSeen += full.rejected;
      const environment = new TournamentWorld(kernel010, transcript.world);
      const legal = transcript.actions.filter((action) => environment.resubmit(action).legal);
      const withoutRejected = replayTranscript({ ...transcript, actions: legal }, kernel010);
      expect(withoutRejected.rejected).toBe(0);
      const strip = (events: readonly { type: string; seq: number }[]) => events.filter((event) => event.type !== "rejected").map(({ seq: _seq, ...event }) => event);
      expect(strip(withoutRejected.events)).toEqual(strip(full.events));
      expect(withoutRejected.state).toEqual(full.state);
    }
    expect(rejectedSeen).toBeGreaterThan(1000);
  });

  it("replays a run with malformed submissions to its own log, event for event, through JSON", () => {
    let malformedSeen = 0;
    for (let seed = 0; seed < 30; seed++) {
      const stream = deriveStream(seed, "replay-malformed-test");
      const environment = new TournamentWorld(kernel010, { seed, numCitizens: 3 + stream.integer(4) });
      for (let index = 0; index < 100 && environment.actorOnTurn !== null; index++) {
        environment.step(stream.integer(4) === 0 ? malformedSubmission(stream, environment.actorOnTurn) : randomAction(stream, environment));
      }
      const malformed = environment.events.filter((event) => event.type === "rejected" && event.action === null).length;
      malformedSeen += malformed;
      const transcript = parseTranscript(JSON.parse(JSON.stringify({ kernelVersion: "0.1.0", world: environment.config, actions: environment.submissions })), "t");
      expect(transcript.actions).toHaveLength(environment.submissions.length);
      const replay = replayTranscript(transcript, kernel010);
      expect(canonicalJson(replay.events)).toBe(canonicalJson(environment.events));
      expect(replay.events).toEqual(environment.events);
      expect(replay.state).toEqual(environment.state);
      expect(replay.rejected).toBe(environment.events.filter((event) => event.type === "rejected").length);
      expect(malformed).toBeGreaterThan(0);
    }
    expect(malformedSeen).toBeGreaterThan(200);
  });

  it("replays a transcript of actions only, as written before malformed submissions were kept, to the log it gave then", () => {
    // Written, and its hash taken, by the code before this format kept malformed submissions: 13 actions, 3 refused by articles.
    const old = JSON.parse(
      '{"kernelVersion":"0.1.0","world":{"numCitizens":3,"initialTreasury":600,"factions":2,"seed":5},"actions":[' +
        '{"type":"ProposeSpend","actor":"c1","amount":50,"recipient":"c2","memo":"roads"},{"type":"Pass","actor":"c0"},' +
        '{"type":"Vote","actor":"c2","proposalId":"p0","support":true},{"type":"Vote","actor":"c0","proposalId":"p0","support":true},' +
        '{"type":"ProposeAmendment","actor":"c2","changes":{"quorumPercent":30}},{"type":"Vote","actor":"c1","proposalId":"p9","support":false},' +
        '{"type":"Vote","actor":"c1","proposalId":"p1","support":true},{"type":"DeclareEmergency","actor":"c0","reason":"storm"},' +
        '{"type":"Exit","actor":"c2"},{"type":"Pass","actor":"c1"},{"type":"Pass","actor":"c0"},{"type":"EndEmergency","actor":"c2"},' +
        '{"type":"Pass","actor":"c2"}]}',
    );
    const replay = replayTranscript(parseTranscript(old, "old.json"), kernel010);
    expect(replay.eventLogHash).toBe("854a8ce861cc17755a08d91f5e655e49973ff9c4b678a94b65957545da01a8c5");
    expect([replay.rejected, replay.events.length, replay.state.round, replay.state.treasury]).toEqual([3, 19, 3, 550]);
  });

  it("refuses a transcript entry that is neither an action nor a refused submission as the world keeps it, naming the entry and the fix", () => {
    const transcript = (entry: unknown) => ({ kernelVersion: "0.1.0", world: { numCitizens: 3, initialTreasury: 600, factions: 2, seed: 5 }, actions: [{ type: "Pass", actor: "c1" }, entry] });
    const refusals: [unknown, RegExp][] = [
      // A typo in an action stays an error, never quietly a malformed submission.
      [{ type: "Pas", actor: "c0" }, /^t: actions\[1\]\.type: got "Pas"; expected one of ProposeSpend/],
      [{ malformed: { type: "Pass", actor: "c0" } }, /^t: actions\[1\]\.malformed: got \{"type":"Pass","actor":"c0"\}; expected a submission that is no action \(this one is: write it as the action itself\)/],
      [{ malformed: 1, reason: "x" }, /^t: actions\[1\]\.reason: expected only "malformed"/],
      [{ notJson: [] }, /^t: actions\[1\]\.notJson: expected .*>=1/],
      [{ notJson: [{ field: "amount" }] }, /^t: actions\[1\]\.notJson\.0\.got: expected/],
    ];
    for (const [entry, message] of refusals) {
      expect(() => parseTranscript(transcript(entry), "t"), JSON.stringify(entry)).toThrow(UnknownActionError);
      expect(() => parseTranscript(transcript(entry), "t"), JSON.stringify(entry)).toThrow(message);
    }
    // The refused forms themselves read back as what the world kept.
    expect(parseTranscript(transcript({ malformed: { b: 1, a: [2] } }), "t").actions[1]).toEqual({ malformed: { a: [2], b: 1 } });
    expect(parseTranscript(transcript({ notJson: [{ field: "amount", got: "NaN" }] }), "t").actions[1]).toEqual({ notJson: [{ field: "amount", got: "NaN" }] });
  });

  it("refuses another kernel version unless asked, and then the kernel decides the outcome", () => {
    const transcript = randomTranscript(7, 200);
    expect(() => replayTranscript(transcript, kernel020)).toThrow(KernelVersionMismatchError);
    expect(() => replayTranscript(transcript, kernel020)).toThrow(/--across-versions/);
    const across = replayTranscript(transcript, kernel020, { acrossVersions: true });
    expect(across.events.length).toBeGreaterThan(0);
    expect(across.eventLogHash).not.toBe(replayTranscript(transcript, kernel010).eventLogHash);
  });
});
