import type { FileHandle } from "node:fs/promises";
import { TruncatedGgufError } from "./errors/index.js";

const CHUNK_BYTES = 1 << 20;

/** Scalar types with a fixed width, which arrays of them can read in one go. */
export type FixedSizeType = "uint8" | "int8" | "uint16" | "int16" | "uint32" | "int32" | "float32" | "float64" | "uint64" | "int64";

/**
 * Reads a GGUF header front to back from an open file, a chunk at a time, so a
 * header with a 150k-token vocabulary is parsed without loading the tensor data.
 * Every read names what it reads, so a short file reports what was cut off.
 */
export class GgufHeaderCursor {
  // A Buffer, because Buffer#toString decodes short UTF-8 strings ~3× faster than TextDecoder.
  private buffer = Buffer.alloc(0);
  private view = new DataView(this.buffer.buffer, this.buffer.byteOffset, 0);
  /** File offset of buffer[0]. */
  private bufferStart = 0;
  /** Absolute file offset of the next unread byte. */
  position = 0;

  constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
    readonly fileSize: number,
  ) {}

  /** Bytes between the cursor and the end of the file. */
  get remaining(): number {
    return this.fileSize - this.position;
  }

  /** Makes `byteCount` bytes from the cursor available, or throws naming `what` if the file ends first. */
  async need(byteCount: number, what: string): Promise<void> {
    const end = this.position + byteCount;
    if (end > this.fileSize) throw new TruncatedGgufError(this.path, what, this.fileSize);
    if (end <= this.bufferStart + this.buffer.byteLength) return;
    const length = Math.min(Math.max(byteCount, CHUNK_BYTES), this.fileSize - this.position);
    const chunk = Buffer.allocUnsafeSlow(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await this.handle.read(chunk, filled, length - filled, this.position + filled);
      if (bytesRead === 0) throw new TruncatedGgufError(this.path, what, this.position + filled);
      filled += bytesRead;
    }
    this.buffer = chunk;
    this.view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.bufferStart = this.position;
  }

  private take(byteCount: number): number {
    const offset = this.position - this.bufferStart;
    this.position += byteCount;
    return offset;
  }

  async uint8(what: string): Promise<number> {
    await this.need(1, what);
    return this.view.getUint8(this.take(1));
  }
  async int8(what: string): Promise<number> {
    await this.need(1, what);
    return this.view.getInt8(this.take(1));
  }
  async uint16(what: string): Promise<number> {
    await this.need(2, what);
    return this.view.getUint16(this.take(2), true);
  }
  async int16(what: string): Promise<number> {
    await this.need(2, what);
    return this.view.getInt16(this.take(2), true);
  }
  async uint32(what: string): Promise<number> {
    await this.need(4, what);
    return this.view.getUint32(this.take(4), true);
  }
  async int32(what: string): Promise<number> {
    await this.need(4, what);
    return this.view.getInt32(this.take(4), true);
  }
  async float32(what: string): Promise<number> {
    await this.need(4, what);
    return this.view.getFloat32(this.take(4), true);
  }
  async float64(what: string): Promise<number> {
    await this.need(8, what);
    return this.view.getFloat64(this.take(8), true);
  }
  async uint64(what: string): Promise<bigint> {
    await this.need(8, what);
    return this.view.getBigUint64(this.take(8), true);
  }
  async int64(what: string): Promise<bigint> {
    await this.need(8, what);
    return this.view.getBigInt64(this.take(8), true);
  }
  async bytes(byteCount: number, what: string): Promise<Uint8Array> {
    await this.need(byteCount, what);
    const offset = this.take(byteCount);
    return this.buffer.subarray(offset, offset + byteCount);
  }
  /** A fixed-size little-endian scalar that an earlier `need` has buffered. */
  bufferedScalar(type: FixedSizeType): number | bigint {
    switch (type) {
      case "uint8": return this.view.getUint8(this.take(1));
      case "int8": return this.view.getInt8(this.take(1));
      case "uint16": return this.view.getUint16(this.take(2), true);
      case "int16": return this.view.getInt16(this.take(2), true);
      case "uint32": return this.view.getUint32(this.take(4), true);
      case "int32": return this.view.getInt32(this.take(4), true);
      case "float32": return this.view.getFloat32(this.take(4), true);
      case "float64": return this.view.getFloat64(this.take(8), true);
      case "uint64": return this.view.getBigUint64(this.take(8), true);
      case "int64": return this.view.getBigInt64(this.take(8), true);
    }
  }

  /** Bytes from the cursor to the end of what is buffered. */
  private get buffered(): number {
    return this.bufferStart + this.buffer.byteLength - this.position;
  }

  /**
   * The next string if it is already buffered, else undefined (and the cursor
   * does not move): lets long string arrays skip an await per item.
   */
  bufferedString(): string | undefined {
    if (this.buffered < 8) return undefined;
    const offset = this.position - this.bufferStart;
    const length = this.view.getBigUint64(offset, true);
    if (length > BigInt(this.buffered - 8)) return undefined;
    this.position += 8 + Number(length);
    return this.buffer.toString("utf8", offset + 8, offset + 8 + Number(length));
  }

  /** A GGUF string: uint64 byte length, then UTF-8 bytes. */
  async string(what: string): Promise<string> {
    const length = await this.uint64(what);
    // Checked before allocating, so a corrupt length cannot ask for terabytes.
    if (length > BigInt(this.remaining)) throw new TruncatedGgufError(this.path, what, this.fileSize);
    await this.need(Number(length), what);
    const offset = this.take(Number(length));
    return this.buffer.toString("utf8", offset, offset + Number(length));
  }
}
