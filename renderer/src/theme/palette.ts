/**
 * The window's colours. Each theme's text colours reach at least 4.5:1 contrast on the surfaces they
 * are drawn on (checked by theme.test.ts); `applyPalette` writes them as CSS custom properties.
 */
export const PALETTES = {
  light: {
    bg: '#f4f6f8',
    surface: '#ffffff',
    'surface-2': '#eef1f4',
    text: '#1b1f24',
    muted: '#57606a',
    border: '#d0d7de',
    accent: '#0b5cad',
    'accent-text': '#ffffff',
    'accent-soft': '#ddeafb',
    ok: '#1a7f37',
    'ok-soft': '#dcf5e3',
    fail: '#c62828',
    'fail-soft': '#fde4e4',
    warn: '#8a5a00',
    'warn-soft': '#fff1cc',
    gate: '#6d28d9',
    'gate-soft': '#efe7ff',
    focus: '#0969da',
    shadow: '0 1px 2px rgb(0 0 0 / 8%)',
    added: '#116329',
    removed: '#c62828',
    highlight: '#fff3b0',
  },
  dark: {
    bg: '#0f1217',
    surface: '#171b22',
    'surface-2': '#1f2530',
    text: '#e6e9ef',
    muted: '#9aa4b2',
    border: '#323b49',
    accent: '#6cb6ff',
    'accent-text': '#0b1422',
    'accent-soft': '#15304f',
    ok: '#56d364',
    'ok-soft': '#12331d',
    fail: '#ff7b72',
    'fail-soft': '#3d1616',
    warn: '#e3b341',
    'warn-soft': '#3a2c0b',
    gate: '#c4a5ff',
    'gate-soft': '#2a1f45',
    focus: '#6cb6ff',
    shadow: '0 1px 2px rgb(0 0 0 / 40%)',
    added: '#56d364',
    removed: '#ff7b72',
    highlight: '#4d3d00',
  },
} as const;

export type ThemeName = keyof typeof PALETTES;
export type PaletteColour = keyof (typeof PALETTES)['light'];

/** The test log is dark in both themes, like a terminal; ANSI colours are drawn on it. */
export const LOG_COLOURS = {
  'log-bg': '#0d1117',
  'log-text': '#e6edf3',
  'log-highlight': '#5a1d1d',
  'ansi-black-fg': '#6e7681',
  'ansi-red-fg': '#ff7b72',
  'ansi-green-fg': '#56d364',
  'ansi-yellow-fg': '#e3b341',
  'ansi-blue-fg': '#79c0ff',
  'ansi-magenta-fg': '#d2a8ff',
  'ansi-cyan-fg': '#56d4dd',
  'ansi-white-fg': '#e6edf3',
  'ansi-bright-black-fg': '#8b949e',
  'ansi-bright-red-fg': '#ffa198',
  'ansi-bright-green-fg': '#7ee787',
  'ansi-bright-yellow-fg': '#f2cc60',
  'ansi-bright-blue-fg': '#a5d6ff',
  'ansi-bright-magenta-fg': '#e2c5ff',
  'ansi-bright-cyan-fg': '#76e3ea',
  'ansi-bright-white-fg': '#ffffff',
  'ansi-red-bg': '#8e1519',
  'ansi-green-bg': '#0f5323',
  'ansi-yellow-bg': '#6c4a00',
  'ansi-blue-bg': '#0c3a6e',
} as const;

export function applyPalette(root: HTMLElement, theme: ThemeName): void {
  for (const [name, value] of Object.entries(PALETTES[theme])) root.style.setProperty(`--${name}`, value);
  for (const [name, value] of Object.entries(LOG_COLOURS)) root.style.setProperty(`--${name}`, value);
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
}
