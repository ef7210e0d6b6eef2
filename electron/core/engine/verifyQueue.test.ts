import { describe, expect, it } from 'vitest';
import { Slots, verifySlots } from './verifyQueue';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('the Verifier queue', () => {
  it('lets at most `size` tasks run at once, the rest in arrival order', async () => {
    const slots = new Slots(1);
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const task = (name: string) => async () => {
      running++;
      most = Math.max(most, running);
      order.push(`start ${name}`);
      await tick();
      order.push(`end ${name}`);
      running--;
      return name;
    };
    const results = await Promise.all(['a', 'b', 'c'].map((name) => slots.run(task(name))));
    expect(results).toEqual(['a', 'b', 'c']);
    expect(most).toBe(1);
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(slots.inUse).toBe(0);
  });

  it('frees the slot when a task fails', async () => {
    const slots = new Slots(1);
    await expect(slots.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await slots.run(async () => 'next')).toBe('next');
  });

  it('runs a waiting task at once when its run is stopped, without taking a slot', async () => {
    const slots = new Slots(1);
    let release = () => {};
    const first = slots.run(() => new Promise<string>((resolve) => (release = () => resolve('first'))));
    const controller = new AbortController();
    let started = false;
    const second = slots.run(async () => ((started = true), 'second'), controller.signal);
    await tick();
    expect(started).toBe(false);
    controller.abort();
    expect(await second).toBe('second');
    expect(slots.inUse).toBe(1);
    release();
    expect(await first).toBe('first');
    expect(slots.inUse).toBe(0);
  });

  it('takes LATHE_VERIFY_JOBS, else half the physical cores, at least one', () => {
    expect(verifySlots({ LATHE_VERIFY_JOBS: '3' })).toBe(3);
    expect(verifySlots({ LATHE_VERIFY_JOBS: 'x' })).toBeGreaterThanOrEqual(1);
  });
});
