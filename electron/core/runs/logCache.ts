import fs from 'node:fs';
import { LatheError } from '../../../shared/errors';
import { RunLogEventSchema, type RunLogEvent } from '../../../shared/schemas/run';
import { isMissing } from '../fsErrors';

interface CachedLog {
  events: RunLogEvent[];
  /** Bytes of complete lines already parsed. */
  offset: number;
  /** Complete lines already parsed, blank ones included, so an error names the line an editor shows. */
  lines: number;
}

/** Logs kept parsed at once; the least recently read goes first. */
const MAX_CACHED_LOGS = 16;

function parseLine(file: string, line: string, lineNumber: number): RunLogEvent {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    json = undefined;
  }
  const parsed = RunLogEventSchema.safeParse(json);
  if (!parsed.success)
    throw new LatheError(
      'RUN_LOG_INVALID',
      `line ${lineNumber} of ${file} is not a run log event; the file was changed outside Lathe`,
      { file, line: lineNumber },
    );
  return parsed.data;
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
    } catch (error) {
      if (!isMissing(error)) throw error;
      this.logs.delete(file);
      return [];
    }
    let cached = this.logs.get(file);
    this.logs.delete(file);
    if (!cached || size < cached.offset) cached = { events: [], offset: 0, lines: 0 };
    if (size > cached.offset) {
      const handle = fs.openSync(file, 'r');
      try {
        const buffer = Buffer.alloc(size - cached.offset);
        fs.readSync(handle, buffer, 0, buffer.length, cached.offset);
        const text = buffer.toString('utf8');
        const complete = text.lastIndexOf('\n') + 1;
        const events = [...cached.events];
        const lines = text.slice(0, complete).split('\n').slice(0, -1);
        const linesBefore = cached.lines;
        lines.forEach((line, index) => {
          if (line.trim()) events.push(parseLine(file, line, linesBefore + index + 1));
        });
        cached = {
          events,
          offset: cached.offset + Buffer.byteLength(text.slice(0, complete)),
          lines: cached.lines + lines.length,
        };
      } finally {
        fs.closeSync(handle);
      }
    }
    this.logs.set(file, cached);
    for (const oldest of this.logs.keys()) {
      if (this.logs.size <= MAX_CACHED_LOGS) break;
      this.logs.delete(oldest);
    }
    return cached.events;
  }

  /** How many logs are held parsed (for tests of the bound). */
  get size(): number {
    return this.logs.size;
  }
}
