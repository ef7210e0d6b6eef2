import fs from 'node:fs';

/**
 * A minimal GGUF v3 writer (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md): typed metadata,
 * tensor infos, then aligned tensor data streamed to disk so a 500 MB model never sits in memory.
 */

export const GGUF_VALUE = {
  uint8: 0,
  int8: 1,
  uint16: 2,
  int16: 3,
  uint32: 4,
  int32: 5,
  float32: 6,
  bool: 7,
  string: 8,
  array: 9,
  uint64: 10,
  int64: 11,
  float64: 12,
} as const;

export type GgufScalarType = Exclude<keyof typeof GGUF_VALUE, 'array'>;

export type GgufMetadataValue =
  | { type: GgufScalarType; value: number | bigint | boolean | string }
  | { type: 'array'; itemType: GgufScalarType; items: ReadonlyArray<number | bigint | boolean | string> };

export const meta = {
  u32: (value: number): GgufMetadataValue => ({ type: 'uint32', value }),
  i32: (value: number): GgufMetadataValue => ({ type: 'int32', value }),
  f32: (value: number): GgufMetadataValue => ({ type: 'float32', value }),
  bool: (value: boolean): GgufMetadataValue => ({ type: 'bool', value }),
  str: (value: string): GgufMetadataValue => ({ type: 'string', value }),
  strings: (items: readonly string[]): GgufMetadataValue => ({ type: 'array', itemType: 'string', items }),
  i32s: (items: readonly number[]): GgufMetadataValue => ({ type: 'array', itemType: 'int32', items }),
};

/** ggml tensor types this writer produces. */
export const GGML_TYPE = { F32: 0, F16: 1, Q8_0: 8 } as const;
export type GgmlTypeName = keyof typeof GGML_TYPE;

export interface GgufTensor {
  name: string;
  /** ne[0] first: the row length comes first, as in ggml. */
  dims: number[];
  type: GgmlTypeName;
  /** Writes exactly `tensorByteLength(dims, type)` bytes, in as many chunks as it likes. */
  writeData: (sink: (chunk: Uint8Array) => void) => void;
}

export function tensorByteLength(dims: readonly number[], type: GgmlTypeName): number {
  const elements = dims.reduce((product, dim) => product * dim, 1);
  if (type === 'F32') return elements * 4;
  if (type === 'F16') return elements * 2;
  if ((dims[0] ?? 0) % 32 !== 0) throw new Error(`Q8_0 needs rows that are a multiple of 32, got ${dims[0]}`);
  return (elements / 32) * 34;
}

class ByteBuilder {
  private chunks: Buffer[] = [];
  length = 0;
  push(buffer: Buffer): void {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  u32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32LE(value);
    this.push(buffer);
  }
  u64(value: number | bigint): void {
    const buffer = Buffer.alloc(8);
    buffer.writeBigUInt64LE(BigInt(value));
    this.push(buffer);
  }
  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  scalar(type: GgufScalarType, value: number | bigint | boolean | string): void {
    const buffer = Buffer.alloc(8);
    switch (type) {
      case 'uint8':
        buffer.writeUInt8(Number(value));
        return this.push(buffer.subarray(0, 1));
      case 'int8':
        buffer.writeInt8(Number(value));
        return this.push(buffer.subarray(0, 1));
      case 'uint16':
        buffer.writeUInt16LE(Number(value));
        return this.push(buffer.subarray(0, 2));
      case 'int16':
        buffer.writeInt16LE(Number(value));
        return this.push(buffer.subarray(0, 2));
      case 'uint32':
        buffer.writeUInt32LE(Number(value));
        return this.push(buffer.subarray(0, 4));
      case 'int32':
        buffer.writeInt32LE(Number(value));
        return this.push(buffer.subarray(0, 4));
      case 'float32':
        buffer.writeFloatLE(Number(value));
        return this.push(buffer.subarray(0, 4));
      case 'bool':
        buffer.writeUInt8(value ? 1 : 0);
        return this.push(buffer.subarray(0, 1));
      case 'uint64':
        buffer.writeBigUInt64LE(BigInt(value));
        return this.push(buffer);
      case 'int64':
        buffer.writeBigInt64LE(BigInt(value));
        return this.push(buffer);
      case 'float64':
        buffer.writeDoubleLE(Number(value));
        return this.push(buffer);
      case 'string':
        return this.string(String(value));
    }
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

const ALIGNMENT = 32;
const alignUp = (value: number) => Math.ceil(value / ALIGNMENT) * ALIGNMENT;

/** Writes a GGUF v3 file; returns its size in bytes. */
export function writeGgufFile(
  filePath: string,
  metadata: ReadonlyArray<[string, GgufMetadataValue]>,
  tensors: readonly GgufTensor[],
): number {
  const header = new ByteBuilder();
  header.push(Buffer.from('GGUF', 'ascii'));
  header.u32(3);
  header.u64(tensors.length);
  header.u64(metadata.length);
  for (const [key, entry] of metadata) {
    header.string(key);
    header.u32(GGUF_VALUE[entry.type]);
    if (entry.type === 'array') {
      header.u32(GGUF_VALUE[entry.itemType]);
      header.u64(entry.items.length);
      for (const item of entry.items) header.scalar(entry.itemType, item);
    } else {
      header.scalar(entry.type, entry.value);
    }
  }
  let offset = 0;
  const offsets: number[] = [];
  for (const tensor of tensors) {
    offsets.push(offset);
    header.string(tensor.name);
    header.u32(tensor.dims.length);
    for (const dim of tensor.dims) header.u64(dim);
    header.u32(GGML_TYPE[tensor.type]);
    header.u64(offset);
    offset = alignUp(offset + tensorByteLength(tensor.dims, tensor.type));
  }
  const headerBytes = header.toBuffer();
  const dataStart = alignUp(headerBytes.length);

  const fd = fs.openSync(filePath, 'w');
  try {
    let position = 0;
    const write = (chunk: Uint8Array) => {
      fs.writeSync(fd, chunk, 0, chunk.length, position);
      position += chunk.length;
    };
    write(headerBytes);
    write(Buffer.alloc(dataStart - headerBytes.length));
    tensors.forEach((tensor, index) => {
      const start = dataStart + (offsets[index] ?? 0);
      if (position !== start) write(Buffer.alloc(start - position));
      tensor.writeData(write);
      const expected = tensorByteLength(tensor.dims, tensor.type);
      if (position !== start + expected)
        throw new Error(`tensor ${tensor.name} wrote ${position - start} bytes, expected ${expected}`);
    });
    return position;
  } finally {
    fs.closeSync(fd);
  }
}
