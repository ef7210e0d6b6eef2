import { describe, expect, it } from 'vitest';
import { LAPTOP_PROFILES, laptopMinutes, MachineRatesSchema, modelTimeMs, type MachineRates } from './laptopTime';
import { medianTokens, tokenCountsOf } from './tokenCounts';

const rates: MachineRates = {
  id: 'test',
  label: 'test',
  prefill_tokens_per_second: 50,
  cached_token_ms: 0.5,
  generation_tokens_per_second: 10,
  source: 'made up',
};

describe('laptop time', () => {
  it('is prefill at the prompt rate, cached tokens at their cost and generated tokens at the generation rate', () => {
    expect(modelTimeMs({ prefill: 5000, cached: 2000, generated: 300 }, rates)).toBe(100_000 + 1000 + 30_000);
    expect(modelTimeMs({ prefill: 0, cached: 0, generated: 0 }, rates)).toBe(0);
  });

  it('gives minutes per reference laptop, the CPU laptop slower than the M-series one', () => {
    const minutes = laptopMinutes({ prefill: 40_000, cached: 0, generated: 250 });
    expect(Object.keys(minutes)).toEqual(LAPTOP_PROFILES.map((profile) => profile.id));
    expect(minutes['cpu-laptop']).toBeGreaterThan(minutes['apple-m'] ?? Infinity);
    // 40k tokens at the CPU laptop's 49.75 tokens/s are 13.4 minutes of prefill, plus 26 s of generation.
    expect(minutes['cpu-laptop']).toBe(13.8);
    for (const profile of LAPTOP_PROFILES) expect(MachineRatesSchema.parse(profile)).toEqual(profile);
  });
});

describe('token counts', () => {
  it('sums tallies, prefill being prompt less cached, and marks estimated counts', () => {
    const total = tokenCountsOf([
      { calls: 2, prompt_tokens: 1000, cached_tokens: 600, completion_tokens: 50, estimated: true },
      { calls: 1, prompt_tokens: 500, completion_tokens: 20 },
    ]);
    expect(total).toEqual({ prompt: 1500, cached: 600, prefill: 900, generated: 70, calls: 3, estimated: true });
  });

  it('takes each median on its own', () => {
    const task = (prompt: number, cached: number) => ({
      prompt,
      cached,
      prefill: prompt - cached,
      generated: 10,
      calls: 2,
      estimated: false,
    });
    expect(medianTokens([task(100, 0), task(300, 250), task(200, 20)])).toEqual({
      prompt: 200,
      cached: 20,
      prefill: 100,
      generated: 10,
      calls: 2,
      estimated: false,
    });
    expect(medianTokens([])).toBeNull();
  });
});
