import { describe, expect, it } from 'vitest';
import { LOG_COLOURS, PALETTES, type PaletteColour } from './palette';

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((index) => parseInt(hex.slice(index, index + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = channels.map((value) =>
    value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4,
  );
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(foreground: string, background: string): number {
  const [light = 0, dark = 0] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}

/** Text colour → the surfaces the stylesheet draws it on. */
const PAIRS: [PaletteColour, PaletteColour[]][] = [
  ['text', ['bg', 'surface', 'surface-2', 'accent-soft', 'fail-soft', 'warn-soft', 'gate-soft', 'ok-soft']],
  ['muted', ['bg', 'surface', 'surface-2']],
  ['accent', ['bg', 'surface', 'surface-2']],
  ['ok', ['surface', 'surface-2']],
  ['fail', ['surface', 'surface-2', 'fail-soft']],
  ['warn', ['surface', 'surface-2']],
  ['gate', ['surface', 'surface-2', 'gate-soft']],
  ['accent-text', ['accent']],
  ['surface', ['gate']],
  ['added', ['surface', 'accent-soft']],
  ['removed', ['surface', 'accent-soft']],
];

describe.each(['light', 'dark'] as const)('the %s theme', (theme) => {
  const colours = PALETTES[theme];

  it.each(PAIRS)('draws %s with at least 4.5:1 contrast on its surfaces', (foreground, backgrounds) => {
    const ratios = backgrounds.map((background) => ({
      background,
      ratio: Math.round(contrast(colours[foreground], colours[background]) * 10) / 10,
    }));
    expect(ratios.filter((entry) => entry.ratio < 4.5)).toEqual([]);
  });

  it('marks focus visibly against the page', () => {
    expect(contrast(colours.focus, colours.bg)).toBeGreaterThanOrEqual(3);
    expect(contrast(colours.focus, colours.surface)).toBeGreaterThanOrEqual(3);
  });
});

describe('the test log colours', () => {
  it('draws every ANSI colour legibly on the log, and on the first-failure line', () => {
    const foregrounds = Object.entries(LOG_COLOURS).filter(
      ([name]) => name.endsWith('-fg') && !name.includes('-black-'),
    );
    expect(foregrounds.length).toBeGreaterThanOrEqual(14);
    const weak = foregrounds.filter(
      ([, colour]) =>
        contrast(colour, LOG_COLOURS['log-bg']) < 4.5 || contrast(colour, LOG_COLOURS['log-highlight']) < 3,
    );
    expect(weak).toEqual([]);
    expect(contrast(LOG_COLOURS['log-text'], LOG_COLOURS['log-highlight'])).toBeGreaterThanOrEqual(4.5);
  });
});
