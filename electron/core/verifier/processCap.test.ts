import fs from 'node:fs';
import { expect, it } from 'vitest';
import { countTasksOf, createProcessCap } from './processCap';

const uidOf = (pid: string) => Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? -1);

it('counts the user’s tasks with their threads, as RLIMIT_NPROC does (a many-threaded desktop would otherwise get a cap below what it already runs)', (context) => {
  if (process.platform !== 'linux') return context.skip('reads /proc');
  const uid = process.getuid?.() ?? 0;
  const ownThreads = Number(/^Threads:\s+(\d+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 1);
  expect(ownThreads).toBeGreaterThan(4);
  const processes = fs.readdirSync('/proc').filter((name) => {
    try {
      return /^\d+$/.test(name) && uidOf(name) === uid;
    } catch {
      return false;
    }
  }).length;
  // Other processes come and go meanwhile; this one's threads alone are more than that slack.
  expect(countTasksOf(uid)).toBeGreaterThanOrEqual(processes + ownThreads - 1 - 3);
});

it('a cgroup cap holds every descendant and is removed on release', async (context) => {
  const cap = await createProcessCap(`captest-${process.pid}`, 64);
  if (!cap.contains) return context.skip(`no writable pids cgroup here (${cap.detail})`);
  const dir = cap.wrap(['true'])[3] as string;
  expect(fs.existsSync(dir)).toBe(true);
  await cap.release();
  expect(fs.existsSync(dir)).toBe(false);
});
