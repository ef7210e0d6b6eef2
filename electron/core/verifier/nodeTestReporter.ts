/**
 * One `node --test` reporter that writes JUnit to its destination and lcov to `lcovFile`. A coverage
 * run used three reporters (spec, junit, lcov), and Node 20 composes each onto the same stream with its
 * own `end` listeners: the third passes the default limit of 10, so every such test log opened with
 * `MaxListenersExceededWarning`. Two reporter slots stay under it. The module goes in as a `data:` URL,
 * so nothing has to be readable inside the sandbox besides the artifact folder it writes to.
 */
export function junitWithLcovReporter(lcovFile: string): string {
  const source = `import fs from 'node:fs';
import { Readable } from 'node:stream';
import { junit, lcov } from 'node:test/reporters';
export default async function* junitWithLcov(source) {
  const events = [];
  async function* recorded() { for await (const event of source) { events.push(event); yield event; } }
  yield* junit(recorded());
  const chunks = [];
  for await (const chunk of Readable.from(events).pipe(lcov)) chunks.push(chunk);
  fs.writeFileSync(${JSON.stringify(lcovFile)}, chunks.join(''));
}
`;
  return `data:text/javascript,${encodeURIComponent(source)}`;
}
