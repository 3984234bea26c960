import { z } from "zod";
import type { ResolvedDevice } from "./resolve-device.js";

/** What a run's files record of the device it ran on (report.json, trainer.json, check-logprobs' output). */
export const DeviceRecordSchema = z.strictObject({
  /** What was asked for: "auto", "cpu", "cuda:1" … */
  requested: z.string(),
  /** ggml's name of the device chosen: "CPU", "CUDA0", "Vulkan0" … */
  name: z.string(),
  /** The driver's name for it. */
  description: z.string(),
  /** ggml's backend: "CPU", "CUDA", "Vulkan" … */
  backend: z.string(),
});
export type DeviceRecord = z.infer<typeof DeviceRecordSchema>;

/** The part of a resolved device that files record (free memory and the reason change from run to run). */
export function deviceRecord(device: ResolvedDevice): DeviceRecord {
  return { requested: device.requested, name: device.name, description: device.description, backend: device.backend };
}
