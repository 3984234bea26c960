import { describe, expect, it } from "vitest";
import { EndpointFleet } from "../../../src/inference/server/endpoint-fleet.js";
import { EndpointRequestError, EndpointUnavailableError } from "../../../src/inference/errors/index.js";

const quick = { attempts: 3, retryDelayMilliseconds: 1, probeIntervalMilliseconds: 5 };

describe("EndpointFleet", () => {
  it("sends each request to the endpoint with the fewest in flight", async () => {
    const fleet = new EndpointFleet([{ url: "a", capacity: 4 }, { url: "b", capacity: 4 }], { ...quick, probe: async () => undefined });
    const release: Array<() => void> = [];
    const seen: string[] = [];
    const pending = Array.from({ length: 4 }, () =>
      fleet.run((url) => {
        seen.push(url);
        return new Promise<string>((resolve) => release.push(() => resolve(url)));
      }),
    );
    await new Promise((wake) => setTimeout(wake, 0));
    expect(seen.sort()).toEqual(["a", "a", "b", "b"]);
    for (const done of release) done();
    await Promise.all(pending);
    expect(fleet.status().map((endpoint) => endpoint.served)).toEqual([2, 2]);
    fleet.close();
  });

  it("waits for room when every endpoint is at capacity", async () => {
    const fleet = new EndpointFleet([{ url: "a", capacity: 1 }], { ...quick, probe: async () => undefined });
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 5 }, () =>
        fleet.run(async () => {
          most = Math.max(most, ++running);
          await new Promise((wake) => setTimeout(wake, 2));
          running--;
        }),
      ),
    );
    expect(most).toBe(1);
    fleet.close();
  });

  it("retries a retryable failure on another endpoint, marks the first down, and answers once", async () => {
    const fleet = new EndpointFleet([{ url: "dead", capacity: 1 }, { url: "live", capacity: 1 }], { ...quick, probe: async (url) => { if (url === "dead") throw new Error("still down"); } });
    const calls: string[] = [];
    const answer = await fleet.run(async (url) => {
      calls.push(url);
      if (url === "dead") throw new EndpointRequestError(url, "ECONNREFUSED", true);
      return 42;
    });
    expect(answer).toEqual({ value: 42, url: "live" });
    expect(calls).toEqual(["dead", "live"]);
    expect(fleet.status().map(({ url, up, served, failed }) => ({ url, up, served, failed }))).toEqual([
      { url: "dead", up: false, served: 0, failed: 1 },
      { url: "live", up: true, served: 1, failed: 0 },
    ]);
    fleet.close();
  });

  it("does not retry a failure the same request would get again", async () => {
    const fleet = new EndpointFleet([{ url: "a", capacity: 1 }, { url: "b", capacity: 1 }], { ...quick, probe: async () => undefined });
    let calls = 0;
    await expect(
      fleet.run(async (url) => {
        calls++;
        throw new EndpointRequestError(url, "POST /completion answered 400: bad grammar", false, 400);
      }),
    ).rejects.toThrow(/answered 400: bad grammar/);
    expect(calls).toBe(1);
    expect(fleet.status().every((endpoint) => endpoint.up)).toBe(true);
    fleet.close();
  });

  it("fails naming every endpoint when all are down", async () => {
    const fleet = new EndpointFleet([{ url: "a", capacity: 1 }, { url: "b", capacity: 1 }], { ...quick, probe: async () => { throw new Error("refused"); } });
    const failure = fleet.run(async (url) => {
      throw new EndpointRequestError(url, "ECONNREFUSED", true);
    });
    await expect(failure).rejects.toThrow(EndpointUnavailableError);
    await expect(failure).rejects.toThrow(/a: ECONNREFUSED.*b: ECONNREFUSED|every endpoint is down: a .*b /);
    fleet.close();
  });

  it("probes a down endpoint back, brings it up to date first, then uses it again", async () => {
    let healthy = false;
    const recovered: string[] = [];
    const fleet = new EndpointFleet([{ url: "a", capacity: 1 }, { url: "b", capacity: 1 }], {
      ...quick,
      probe: async () => {
        if (!healthy) throw new Error("refused");
      },
      onRecovered: async (url) => {
        recovered.push(url);
      },
    });
    fleet.markDown("a", "killed");
    expect(fleet.liveUrls()).toEqual(["b"]);
    expect(fleet.status()[0]?.downReason).toBe("killed");
    healthy = true;
    for (let wait = 0; wait < 100 && fleet.liveUrls().length < 2; wait++) await new Promise((wake) => setTimeout(wake, 5));
    expect(fleet.liveUrls()).toEqual(["a", "b"]);
    expect(recovered).toEqual(["a"]);
    fleet.close();
  });
});
