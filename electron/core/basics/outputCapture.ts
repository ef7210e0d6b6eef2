import type fs from 'node:fs';

/**
 * Keeps the first and last halves of a stream's bytes within `capBytes` (the middle is dropped and
 * counted), and copies everything up to `logCapBytes` to the log file.
 */
export class OutputCapture {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private logBytes = 0;
  private logTruncated = false;
  totalBytes = 0;

  constructor(
    private readonly capBytes: number,
    private readonly log: fs.WriteStream | null,
    private readonly logCapBytes: number,
  ) {}

  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    this.writeLog(chunk);
    const half = Math.floor(this.capBytes / 2);
    if (this.headBytes < half) {
      const take = chunk.subarray(0, half - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes - (this.tail[0]?.length ?? 0) >= half && this.tail.length > 1) {
      this.tailBytes -= (this.tail.shift() as Buffer).length;
    }
  }

  private writeLog(chunk: Buffer): void {
    if (!this.log || this.logTruncated) return;
    const room = this.logCapBytes - this.logBytes;
    if (chunk.length > room) {
      this.log.write(chunk.subarray(0, Math.max(0, room)));
      this.log.write(`\n[log truncated at ${this.logCapBytes} bytes]\n`);
      this.logTruncated = true;
      return;
    }
    this.log.write(chunk);
    this.logBytes += chunk.length;
  }

  /** The captured text; when bytes were dropped, a marker says how many. */
  text(): string {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    const half = Math.floor(this.capBytes / 2);
    if (tail.length > half) tail = tail.subarray(tail.length - half);
    const dropped = this.totalBytes - head.length - tail.length;
    if (dropped <= 0) return Buffer.concat([head, tail]).toString('utf8');
    return `${head.toString('utf8')}\n[... ${dropped} bytes of output omitted ...]\n${tail.toString('utf8')}`;
  }
}
