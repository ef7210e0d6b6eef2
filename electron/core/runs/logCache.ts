import fs from 'node:fs';
import { RunLogEventSchema, type RunLogEvent } from '../../../shared/schemas/run';

interface CachedLog {
  events: RunLogEvent[];
  /** Bytes of complete lines already parsed. */
  offset: number;
}

/**
 * The window asks for a run's log again and again while it runs. log.jsonl is append-only, so each
 * read parses only the lines written since the last one; a shorter file (a repaired torn line, or a
 * new run folder) starts over.
 */
export class RunLogCache {
  private readonly logs = new Map<string, CachedLog>();

  read(file: string): RunLogEvent[] {
    let size: number;
    try {
      size = fs.statSync(file).size;
    } catch {
      this.logs.delete(file);
      return [];
    }
    let cached = this.logs.get(file);
    if (!cached || size < cached.offset) cached = { events: [], offset: 0 };
    if (size > cached.offset) {
      const handle = fs.openSync(file, 'r');
      try {
        const buffer = Buffer.alloc(size - cached.offset);
        fs.readSync(handle, buffer, 0, buffer.length, cached.offset);
        const text = buffer.toString('utf8');
        const complete = text.lastIndexOf('\n') + 1;
        const events = [...cached.events];
        for (const line of text.slice(0, complete).split('\n')) if (line.trim()) events.push(RunLogEventSchema.parse(JSON.parse(line)));
        cached = { events, offset: cached.offset + Buffer.byteLength(text.slice(0, complete)) };
      } finally {
        fs.closeSync(handle);
      }
    }
    this.logs.set(file, cached);
    return cached.events;
  }
}
