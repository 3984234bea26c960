import { open, type FileHandle } from "node:fs/promises";
import {
  GgufError,
  GgufFileNotFoundError,
  GgufTensorNotFoundError,
  TruncatedGgufError,
  UnsupportedTensorTypeError,
} from "./errors/index.js";
import { InvalidInputError } from "../core/errors/index.js";
import { DEQUANTIZABLE_TYPES, dequantize, isDequantizable } from "./dequantize.js";
import { ggmlByteLength } from "./ggml-type.js";
import type { GgufTensorInfo } from "./gguf-tensor-info.js";
import type { GgufMetadata } from "./gguf-value.js";
import { readGgufHeader, type GgufHeader } from "./read-gguf-header.js";

export interface ReadTensorOptions {
  /** First row to read; a row is `dims[0]` values. Default 0. */
  firstRow?: number;
  /** Number of rows to read. Default: every row from `firstRow` on. */
  rowCount?: number;
}

/**
 * An open GGUF file. Opening parses only the header; tensor data is read per
 * tensor (or per row range) when asked for, so multi-gigabyte models are never
 * loaded whole. Call `close()` when done.
 */
export class GgufReader {
  readonly version: number;
  /** Metadata in file order. */
  readonly metadata: GgufMetadata;
  /** Tensors in file order. */
  readonly tensors: readonly GgufTensorInfo[];
  /** Alignment of tensor data in bytes. */
  readonly alignment: number;
  /** Absolute offset where the tensor data section begins. */
  readonly dataOffset: number;
  private readonly tensorsByName: ReadonlyMap<string, GgufTensorInfo>;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    header: GgufHeader,
  ) {
    this.version = header.version;
    this.metadata = header.metadata;
    this.tensors = header.tensors;
    this.alignment = header.alignment;
    this.dataOffset = header.dataOffset;
    this.tensorsByName = new Map(header.tensors.map((tensor) => [tensor.name, tensor]));
  }

  /** Opens `path` and parses its header; throws a GgufError subclass naming the file and the problem. */
  static async open(path: string): Promise<GgufReader> {
    let handle: FileHandle;
    try {
      handle = await open(path, "r");
    } catch (error) {
      if (isErrorCode(error, "ENOENT")) throw new GgufFileNotFoundError(path, { cause: error });
      throw new GgufError(path, `cannot be opened (${describe(error)})`, { cause: error });
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw new GgufError(path, "is not a regular file (a directory?); pass the path of a .gguf file");
      return new GgufReader(path, handle, await readGgufHeader(handle, path, stats.size));
    } catch (error) {
      await handle.close();
      if (error instanceof GgufError) throw error;
      throw new GgufError(path, `cannot be read (${describe(error)})`, { cause: error });
    }
  }

  /** The tensor named `name`, or undefined. */
  findTensor(name: string): GgufTensorInfo | undefined {
    return this.tensorsByName.get(name);
  }

  /** The tensor named `name`; throws GgufTensorNotFoundError if there is none. */
  tensor(name: string): GgufTensorInfo {
    const tensor = this.tensorsByName.get(name);
    if (!tensor) throw new GgufTensorNotFoundError(this.path, name);
    return tensor;
  }

  /** The stored bytes of a tensor (or of a range of its rows), in any element type. */
  async readTensorBytes(name: string, options: ReadTensorOptions = {}): Promise<Uint8Array> {
    const tensor = this.tensor(name);
    const { offset, length } = rowRange(tensor, options);
    const bytes = new Uint8Array(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await this.handle.read(bytes, filled, length - filled, tensor.fileOffset + offset + filled);
      // The header check saw the data inside the file, so a short read means it shrank since.
      if (bytesRead === 0) throw new TruncatedGgufError(this.path, `the data of tensor "${name}"`, tensor.fileOffset + offset + filled);
      filled += bytesRead;
    }
    return bytes;
  }

  /** A tensor's values (or a range of its rows) as float32, dequantised; row-major, innermost dimension fastest. */
  async readTensor(name: string, options: ReadTensorOptions = {}): Promise<Float32Array> {
    const tensor = this.tensor(name);
    if (!isDequantizable(tensor.type)) throw new UnsupportedTensorTypeError(this.path, name, tensor.type, DEQUANTIZABLE_TYPES);
    const bytes = await this.readTensorBytes(name, options);
    return dequantize(tensor.type, bytes, rowRange(tensor, options).elementCount);
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

function rowRange(tensor: GgufTensorInfo, options: ReadTensorOptions): { offset: number; length: number; elementCount: number } {
  const rowLength = tensor.dims[0] ?? 1;
  const rows = rowLength === 0 ? 0 : tensor.elementCount / rowLength;
  const firstRow = options.firstRow ?? 0;
  if (!Number.isInteger(firstRow) || firstRow < 0 || firstRow > rows) {
    throw new InvalidInputError("firstRow", `an integer from 0 to ${rows} (tensor "${tensor.name}" has ${rows} rows)`, firstRow);
  }
  const rowCount = options.rowCount ?? rows - firstRow;
  if (!Number.isInteger(rowCount) || rowCount < 0 || firstRow + rowCount > rows) {
    throw new InvalidInputError("rowCount", `an integer from 0 to ${rows - firstRow} (tensor "${tensor.name}" has ${rows} rows)`, rowCount);
  }
  const rowBytes = ggmlByteLength(tensor.type, rowLength);
  return { offset: firstRow * rowBytes, length: rowCount * rowBytes, elementCount: rowCount * rowLength };
}

function isErrorCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
