import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/program.js";

async function runCli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false } });
  return { code, stdout, stderr };
}

describe("--device", () => {
  it.each([
    ["eval"],
    ["generate", "--prompt", "2+2="],
    ["dialectic", "--task", "a task"],
    ["riddles", "--episodes", "1"],
    ["dream", "--once"],
    ["prm", "label", "--trajectories", "x", "--out", "y"],
    ["pretrain", "--out", "x.gguf"],
    ["train"],
    ["check-logprobs", "--model", "x.gguf"],
    ["devices"],
    ["run", "debate"],
  ])("exits 2 on a value that is no device, naming the flag and the allowed values (%s)", async (...argv) => {
    const { code, stderr } = await runCli([...argv, "--device", "nope"]);
    expect(code).toBe(2);
    expect(stderr).toContain('error: --device: got "nope"; expected one of: auto, cpu, cuda, cuda:N, vulkan, vulkan:N');
  });

  it("exits 2 when the device asked for is not on this machine, naming what was found", async () => {
    // CI's machines have no NVIDIA driver: node-llama-cpp's CUDA binaries do not load.
    const { code, stderr } = await runCli(["devices", "--device", "cuda"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: device: cuda is not available \(.*CUDA.*\); found CPU.*Use --device auto/);
    expect(stderr).not.toContain("    at ");
  });

  it("selfplay devices lists ggml's devices and what --device auto picks", async () => {
    const { code, stdout } = await runCli(["devices", "--json"]);
    expect(code).toBe(0);
    const { devices, chosen } = JSON.parse(stdout) as { devices: { name: string; type: string; software: boolean }[]; chosen: { requested: string; name: string; reason: string } };
    expect(devices.find((device) => device.type === "cpu")?.name).toBe("CPU");
    expect(chosen.requested).toBe("auto");
    // This suite's auto never takes a CPU-type Vulkan device (GGML_VK_VISIBLE_DEVICES is the device project's only).
    expect(devices.find((device) => device.name === chosen.name)?.software).toBe(false);
    const text = await runCli(["devices", "--device", "cpu"]);
    expect(text.stdout).toMatch(/^\* CPU\tCPU\tcpu\t\d+ of \d+ MiB free\t/m);
    expect(text.stdout).toContain("--device cpu: device: CPU (");
  });
});
