/**
 * Assembles GGUF bytes by hand, independently of src/gguf's encoder, so tests
 * can make files the writer refuses to make (bad magic, unknown types, short data).
 */
export class RawGguf {
  private readonly parts: number[] = [];

  bytes(values: Iterable<number>): this {
    for (const value of values) this.parts.push(value & 0xff);
    return this;
  }
  uint32(value: number): this {
    const view = new DataView(new ArrayBuffer(4));
    view.setUint32(0, value, true);
    return this.bytes(new Uint8Array(view.buffer));
  }
  uint64(value: number | bigint): this {
    const view = new DataView(new ArrayBuffer(8));
    view.setBigUint64(0, BigInt(value), true);
    return this.bytes(new Uint8Array(view.buffer));
  }
  float32(value: number): this {
    const view = new DataView(new ArrayBuffer(4));
    view.setFloat32(0, value, true);
    return this.bytes(new Uint8Array(view.buffer));
  }
  string(value: string): this {
    const encoded = new TextEncoder().encode(value);
    return this.uint64(encoded.byteLength).bytes(encoded);
  }
  /** "GGUF", version, tensor count, metadata count. */
  header(version: number, tensorCount: number, metadataCount: number): this {
    return this.bytes([0x47, 0x47, 0x55, 0x46]).uint32(version).uint64(tensorCount).uint64(metadataCount);
  }
  /** A tensor info: name, dims, ggml type id, offset within the data section. */
  tensorInfo(name: string, dims: readonly number[], typeId: number, offset: number): this {
    this.string(name).uint32(dims.length);
    for (const size of dims) this.uint64(size);
    return this.uint32(typeId).uint64(offset);
  }
  /** Zero bytes up to the next multiple of `alignment`. */
  pad(alignment = 32): this {
    while (this.parts.length % alignment !== 0) this.parts.push(0);
    return this;
  }
  get length(): number {
    return this.parts.length;
  }
  result(): Uint8Array {
    return new Uint8Array(this.parts);
  }
}
