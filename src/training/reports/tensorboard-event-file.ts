import { appendFileSync, mkdirSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import protobuf from "protobufjs/minimal.js";
import { maskedCrc32c } from "./masked-crc32c.js";

/**
 * One TFRecord: the data's length (u64 LE), its masked CRC-32C, the data, and
 * the data's masked CRC-32C — the framing TensorBoard reads event files with.
 */
function frameRecord(data: Uint8Array): Buffer {
  const header = Buffer.alloc(8);
  header.writeBigUInt64LE(BigInt(data.length));
  const headerCrc = Buffer.alloc(4);
  headerCrc.writeUInt32LE(maskedCrc32c(header));
  const dataCrc = Buffer.alloc(4);
  dataCrc.writeUInt32LE(maskedCrc32c(data));
  return Buffer.concat([header, headerCrc, data, dataCrc]);
}

/**
 * An `Event` message of tensorflow/core/util/event.proto: wall_time (1,
 * double), step (2, int64), then file_version (3, string) or summary (5,
 * Summary { repeated Value value = 1 }, Value { string tag = 1; float
 * simple_value = 2 }).
 */
function encodeEvent(wallTime: number, step: number, body: { fileVersion: string } | { scalars: Readonly<Record<string, number>> }): Uint8Array {
  const writer = protobuf.Writer.create();
  writer.uint32((1 << 3) | 1).double(wallTime);
  writer.uint32((2 << 3) | 0).int64(step);
  if ("fileVersion" in body) writer.uint32((3 << 3) | 2).string(body.fileVersion);
  else {
    writer.uint32((5 << 3) | 2).fork();
    for (const [tag, value] of Object.entries(body.scalars)) {
      writer.uint32((1 << 3) | 2).fork();
      writer.uint32((1 << 3) | 2).string(tag);
      writer.uint32((2 << 3) | 5).float(value);
      writer.ldelim();
    }
    writer.ldelim();
  }
  return writer.finish();
}

/**
 * A TensorBoard event file in `folder` (`events.out.tfevents.<seconds>.<host>`,
 * a new one per process as TensorBoard's own writers do), appended to record by
 * record so a killed run keeps every scalar written before it died.
 */
export class TensorBoardEventFile {
  private constructor(readonly path: string) {}

  static create(folder: string, now: Date = new Date()): TensorBoardEventFile {
    mkdirSync(folder, { recursive: true });
    const seconds = now.getTime() / 1000;
    const file = new TensorBoardEventFile(join(folder, `events.out.tfevents.${Math.floor(seconds)}.${hostname()}`));
    file.append(encodeEvent(seconds, 0, { fileVersion: "brain.Event:2" }));
    return file;
  }

  /** Scalars of one step, each under its tag (`rewards/solver`, `heldOutAccuracy` …); non-finite values are left out. */
  writeScalars(step: number, scalars: Readonly<Record<string, number>>, wallTime: number = Date.now() / 1000): void {
    const finite = Object.fromEntries(Object.entries(scalars).filter(([, value]) => Number.isFinite(value)));
    this.append(encodeEvent(wallTime, step, { scalars: finite }));
  }

  private append(event: Uint8Array): void {
    appendFileSync(this.path, frameRecord(event));
  }
}
