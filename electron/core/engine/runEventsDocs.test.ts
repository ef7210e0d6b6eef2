/** shared/engine/runEvents.ts against docs/events.md and the logs real runs recorded (this side may read files). */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRunEventType, RUN_EVENT_TYPES, RUN_EVENTS } from '../../../shared/engine/runEvents';
import { withStepId } from '../../../shared/engine/readRunEvent';
import { RunLogEventSchema } from '../../../shared/schemas/run';

const root = path.resolve(import.meta.dirname, '../../..');

/** docs/events.md's table: each row's event types (first cell) and the text that documents them. */
function documentedRows(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of fs.readFileSync(path.join(root, 'docs/events.md'), 'utf8').split('\n')) {
    if (!line.startsWith('| `')) continue;
    const [, typeCell = '', ...rest] = line.split('|');
    for (const [, type = ''] of typeCell.matchAll(/`(\w+)`/g)) rows.set(type, rest.join('|'));
  }
  return rows;
}

function recordedLogLines(): unknown[] {
  const dir = path.join(root, 'renderer/src/runView/fixtures');
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => fs.readFileSync(path.join(dir, name), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line): unknown => JSON.parse(line));
}

describe('the run-event map and docs/events.md', () => {
  it('documents exactly the event types of the map', () => {
    expect([...documentedRows().keys()].sort()).toEqual([...RUN_EVENT_TYPES].sort());
  });

  it("names every field of each type's data in its row", () => {
    const rows = documentedRows();
    const undocumented = RUN_EVENT_TYPES.flatMap((type) =>
      Object.keys(RUN_EVENTS[type].shape)
        .filter((field) => !rows.get(type)?.includes(`\`${field}\``))
        .map((field) => `${type}.${field}`),
    );
    expect(undocumented).toEqual([]);
  });
});

describe('logs recorded by real runs', () => {
  const events = recordedLogLines().map((line) => RunLogEventSchema.parse(line));

  it('hold only known types whose data matches the map as written (their older `task_id` read as `step_id`, as every reader does)', () => {
    const mismatches = events.flatMap((event) => {
      if (!isRunEventType(event.type)) return [`${event.seq}: unknown type ${event.type}`];
      const parsed = RUN_EVENTS[event.type].safeParse(withStepId(event.data));
      return parsed.success ? [] : [`${event.seq} ${event.type}: ${parsed.error.message}`];
    });
    expect(events.length).toBeGreaterThan(50);
    expect(mismatches).toEqual([]);
  });
});
