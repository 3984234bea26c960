import { afterEach, describe, expect, it, vi } from "vitest";
import { NativeAddonUnavailableError } from "../../../src/inference/errors/index.js";

vi.mock("../../../src/inference/native/load-native-addon.js", () => ({
  loadNativeAddon: vi.fn(async () => ({ binding: undefined, reason: "build/Release/selfplay_native.node was not built" })),
}));

const { chooseDecoder } = await import("../../../src/inference/llama/choose-decoder.js");
const { loadNativeAddon } = await import("../../../src/inference/native/load-native-addon.js");

describe("chooseDecoder without the native addon", () => {
  afterEach(() => vi.restoreAllMocks());

  it("falls back to node-llama-cpp under auto, saying so once per process", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(await chooseDecoder("auto", "cpu")).toBe("node-llama-cpp");
    expect(await chooseDecoder("auto", "cpu")).toBe("node-llama-cpp");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/native decoder is unavailable \(build\/Release\/selfplay_native\.node was not built\)/);
  });

  it("refuses decoder native with the reason", async () => {
    await expect(chooseDecoder("native", "cpu")).rejects.toThrowError(NativeAddonUnavailableError);
    await expect(chooseDecoder("native", "cpu")).rejects.toThrowError(/was not built.*build-native\.mjs/);
  });

  it("does not look for the addon when node-llama-cpp is chosen", async () => {
    vi.mocked(loadNativeAddon).mockClear();
    expect(await chooseDecoder("node-llama-cpp", "cpu")).toBe("node-llama-cpp");
    expect(loadNativeAddon).not.toHaveBeenCalled();
  });
});
