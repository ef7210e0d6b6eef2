#!/usr/bin/env node
// Draws Lathe's icon (a lathe: chuck, turned workpiece, tailstock and cutting tool on a dark tile)
// and writes every file electron-builder needs: icon.png (1024), png/NxN.png for Linux, icon.ico
// for Windows, icon.icns for macOS. Pure Node, nothing downloaded: `node resources/icons/make-icons.mjs`.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const OUT = import.meta.dirname;
const LINUX_SIZES = [16, 32, 48, 64, 128, 256, 512];
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** ICNS entry types whose payload is a PNG of the given size. */
const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
];

const COLORS = {
  tileTop: [38, 50, 68],
  tileBottom: [17, 24, 39],
  chuck: [245, 158, 11],
  chuckJaw: [180, 83, 9],
  work: [229, 231, 235],
  workShade: [156, 163, 175],
  tail: [148, 163, 184],
  tool: [20, 184, 166],
};

const roundedBox = (x, y, cx, cy, hw, hh, r) => {
  const dx = Math.max(Math.abs(x - cx) - (hw - r), 0);
  const dy = Math.max(Math.abs(y - cy) - (hh - r), 0);
  return Math.hypot(dx, dy) <= r;
};

/** The workpiece's radius along the bed: a cylinder with a turned groove where the tool cuts, tapered at the tailstock. */
const workRadius = (x) => 0.095 - 0.04 * Math.exp(-(((x - 0.55) / 0.05) ** 2)) - 0.035 * Math.min(1, Math.max(0, (x - 0.66) / 0.06));

const inTriangle = (x, y, [ax, ay], [bx, by], [cx, cy]) => {
  const side = (px, py, qx, qy, rx, ry) => (px - rx) * (qy - ry) - (qx - rx) * (py - ry);
  const d1 = side(x, y, ax, ay, bx, by);
  const d2 = side(x, y, bx, by, cx, cy);
  const d3 = side(x, y, cx, cy, ax, ay);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
};

/** The colour at a point of the unit square, or null outside the tile. Later shapes are on top. */
function colorAt(x, y) {
  if (!roundedBox(x, y, 0.5, 0.5, 0.5, 0.5, 0.2)) return null;
  let color = COLORS.tileTop.map((top, i) => top + (COLORS.tileBottom[i] - top) * y);
  // Tailstock: a block on the right with a centre point touching the workpiece's end.
  if (roundedBox(x, y, 0.83, 0.5, 0.055, 0.11, 0.02) || inTriangle(x, y, [0.775, 0.455], [0.775, 0.545], [0.715, 0.5])) color = COLORS.tail;
  // Workpiece between the chuck and the tailstock, shaded like a cylinder.
  if (x >= 0.3 && x <= 0.72) {
    const r = workRadius(x);
    const dy = (y - 0.5) / r;
    if (Math.abs(dy) <= 1) {
      const light = 0.75 + 0.25 * Math.cos(dy * 1.2 + 0.5);
      color = COLORS.workShade.map((shade, i) => shade + (COLORS.work[i] - shade) * light);
    }
  }
  // Chuck with three jaws.
  if (roundedBox(x, y, 0.22, 0.5, 0.09, 0.2, 0.035)) color = COLORS.chuck;
  for (const jawY of [0.38, 0.5, 0.62]) if (roundedBox(x, y, 0.305, jawY, 0.02, 0.035, 0.008)) color = COLORS.chuckJaw;
  // Cutting tool: a shank from below with a point at the bottom of the groove.
  const grooveBottom = 0.5 + workRadius(0.55);
  if (roundedBox(x, y, 0.565, 0.8, 0.04, 0.09, 0.012) || inTriangle(x, y, [0.525, 0.72], [0.605, 0.72], [0.55, grooveBottom + 0.006])) color = COLORS.tool;
  return color;
}

/** RGBA pixels, 4×4 samples per pixel for smooth edges. */
export function renderIcon(size) {
  const samples = 4;
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let covered = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const color = colorAt((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size);
          if (!color) continue;
          r += color[0];
          g += color[1];
          b += color[2];
          covered++;
        }
      }
      const at = (py * size + px) * 4;
      if (covered === 0) continue;
      pixels[at] = Math.round(r / covered);
      pixels[at + 1] = Math.round(g / covered);
      pixels[at + 2] = Math.round(b / covered);
      pixels[at + 3] = Math.round((255 * covered) / samples ** 2);
    }
  }
  return pixels;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export function encodePng(size, pixels) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** Windows .ico holding PNG images (Vista and later read them). */
export function encodeIco(pngs) {
  const header = Buffer.alloc(6 + 16 * pngs.length);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(pngs.length, 4);
  let offset = header.length;
  pngs.forEach(({ size, png }, index) => {
    const at = 6 + 16 * index;
    header.writeUInt8(size >= 256 ? 0 : size, at);
    header.writeUInt8(size >= 256 ? 0 : size, at + 1);
    header.writeUInt16LE(1, at + 4);
    header.writeUInt16LE(32, at + 6);
    header.writeUInt32LE(png.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...pngs.map(({ png }) => png)]);
}

/** macOS .icns with PNG payloads. */
export function encodeIcns(entries) {
  const parts = entries.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + parts.reduce((sum, part) => sum + part.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

function main() {
  const sizes = [...new Set([...LINUX_SIZES, ...ICO_SIZES, ...ICNS_TYPES.map(([, size]) => size)])].sort((a, b) => a - b);
  const pngs = new Map(sizes.map((size) => [size, encodePng(size, renderIcon(size))]));
  fs.mkdirSync(path.join(OUT, 'png'), { recursive: true });
  fs.writeFileSync(path.join(OUT, 'icon.png'), pngs.get(1024));
  for (const size of LINUX_SIZES) fs.writeFileSync(path.join(OUT, 'png', `${size}x${size}.png`), pngs.get(size));
  fs.writeFileSync(path.join(OUT, 'icon.ico'), encodeIco(ICO_SIZES.map((size) => ({ size, png: pngs.get(size) }))));
  fs.writeFileSync(path.join(OUT, 'icon.icns'), encodeIcns(ICNS_TYPES.map(([type, size]) => ({ type, png: pngs.get(size) }))));
  process.stdout.write(`wrote icon.png, png/{${LINUX_SIZES.join(',')}}, icon.ico, icon.icns in ${OUT}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
