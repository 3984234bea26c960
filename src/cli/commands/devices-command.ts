import { Option, type Command } from "commander";
import { z } from "zod";
import { describeDevice } from "../../inference/device/resolve-device.js";
import { listNativeDevices } from "../../inference/native/list-native-devices.js";
import { EXIT, type CliIo } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { DEVICE_FLAG, deviceOption } from "../device-flag.js";
import { parseOptions } from "../parse-options.js";

export const DevicesCommandOptionsSchema = z.object({
  json: z.boolean().default(false),
  ...DEVICE_FLAG,
});

const MIB = 1024 * 1024;

/** `selfplay devices`: ggml's devices in the llama.cpp build a request loads, and what `--device` (default auto) picks. */
export async function devicesCommand(rawOptions: unknown, io: CliIo): Promise<number> {
  const options = parseOptions(DevicesCommandOptionsSchema, rawOptions);
  const { devices, chosen } = await listNativeDevices(options.device);
  if (options.json) {
    io.stdout(`${JSON.stringify({ devices, chosen })}\n`);
    return EXIT.ok;
  }
  for (const device of devices) {
    const memory = `${Math.round(device.memoryFree / MIB)} of ${Math.round(device.memoryTotal / MIB)} MiB free`;
    io.stdout(`${device.name === chosen.name ? "*" : " "} ${device.name}\t${device.backend}\t${device.type}${device.software ? " (software: a CPU-type Vulkan device)" : ""}\t${memory}\t${device.description}\n`);
  }
  io.stdout(`--device ${chosen.requested}: ${describeDevice(chosen)}\n`);
  return EXIT.ok;
}

export function registerDevicesCommand(program: Command, { io, setExitCode }: CommandContext): void {
  program
    .command("devices")
    .description("List ggml's devices (name, backend, type, memory) and say which one --device auto (or the --device given) picks.")
    .addOption(deviceOption())
    .addOption(new Option("--json", "print { devices, chosen } as one JSON object"))
    .action(async (flags: Record<string, unknown>) => {
      setExitCode(await devicesCommand(flags, io));
    });
}
