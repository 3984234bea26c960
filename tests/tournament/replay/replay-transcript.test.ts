import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { deriveStream, type RandomStream } from "../../../src/core/random/random-stream.js";
import { KernelVersionMismatchError } from "../../../src/tournament/errors/index.js";
import { parseKernel } from "../../../src/tournament/kernel/load-kernel.js";
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
  return { kernelVersion: "0.1.0", world: environment.config, actions: [...environment.actions] };
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
      const legal = transcript.actions.filter((action) => environment.step(action).legal);
      const withoutRejected = replayTranscript({ ...transcript, actions: legal }, kernel010);
      expect(withoutRejected.rejected).toBe(0);
      const strip = (events: readonly { type: string; seq: number }[]) => events.filter((event) => event.type !== "rejected").map(({ seq: _seq, ...event }) => event);
      expect(strip(withoutRejected.events)).toEqual(strip(full.events));
      expect(withoutRejected.state).toEqual(full.state);
    }
    expect(rejectedSeen).toBeGreaterThan(1000);
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
