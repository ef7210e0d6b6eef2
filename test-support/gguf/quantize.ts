/** ggml's number formats, bit-exact with its reference C: IEEE half floats and Q8_0 blocks. */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE 754 binary16 bits of a number, round to nearest even (what ggml's GGML_FP32_TO_FP16 does). */
export function toFloat16Bits(value: number): number {
  f32[0] = value;
  const bits = u32[0] ?? 0;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  const mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa !== 0 ? 0x200 : 0);
  const halfExponent = exponent - 127 + 15;
  if (halfExponent >= 0x1f) return sign | 0x7c00;
  if (halfExponent <= 0) {
    if (halfExponent < -10) return sign;
    const full = mantissa | 0x800000;
    const shift = 14 - halfExponent;
    let half = full >>> shift;
    const remainder = full & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (remainder > halfway || (remainder === halfway && (half & 1) === 1)) half += 1;
    return sign | half;
  }
  let half = (halfExponent << 10) | (mantissa >>> 13);
  const remainder = mantissa & 0x1fff;
  // A carry out of the mantissa correctly bumps the exponent (up to infinity).
  if (remainder > 0x1000 || (remainder === 0x1000 && (half & 1) === 1)) half += 1;
  return sign | half;
}

export function fromFloat16Bits(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >>> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa === 0 ? sign * Infinity : NaN;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

export const Q8_0_BLOCK = 32;
export const Q8_0_BLOCK_BYTES = 34;

/** C's roundf: halves away from zero (Math.round sends -2.5 to -2). */
const roundAwayFromZero = (value: number) => (value < 0 ? -Math.round(-value) : Math.round(value));

/**
 * quantize_row_q8_0_ref: per block of 32, d = max|x| / 127 stored as f16, then 32 int8 round(x / d).
 * `values.length` must be a multiple of 32; writes `values.length / 32 * 34` bytes at `out[offset]`.
 */
export function quantizeQ8_0(values: Float32Array, out: Uint8Array, offset = 0): void {
  if (values.length % Q8_0_BLOCK !== 0) throw new Error('Q8_0 quantizes whole blocks of 32 values');
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let block = 0; block < values.length / Q8_0_BLOCK; block++) {
    const base = block * Q8_0_BLOCK;
    let absMax = 0;
    for (let j = 0; j < Q8_0_BLOCK; j++) absMax = Math.max(absMax, Math.abs(values[base + j] ?? 0));
    const d = Math.fround(absMax / 127);
    const inverse = d !== 0 ? Math.fround(1 / d) : 0;
    const at = offset + block * Q8_0_BLOCK_BYTES;
    view.setUint16(at, toFloat16Bits(d), true);
    for (let j = 0; j < Q8_0_BLOCK; j++)
      view.setInt8(at + 2 + j, roundAwayFromZero(Math.fround((values[base + j] ?? 0) * inverse)));
  }
}

export function dequantizeQ8_0(bytes: Uint8Array, count: number): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float32Array(count);
  for (let block = 0; block < count / Q8_0_BLOCK; block++) {
    const at = block * Q8_0_BLOCK_BYTES;
    const d = fromFloat16Bits(view.getUint16(at, true));
    for (let j = 0; j < Q8_0_BLOCK; j++) values[block * Q8_0_BLOCK + j] = d * view.getInt8(at + 2 + j);
  }
  return values;
}

/** A small, fast, seeded PRNG (mulberry32): deterministic weights on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function hashSeed(text: string, base: number): number {
  let hash = (2166136261 ^ base) >>> 0;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
  return hash;
}
