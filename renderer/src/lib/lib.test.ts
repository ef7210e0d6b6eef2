import { describe, expect, it } from 'vitest';
import { ansiSpans, firstFailureLine, stripAnsi } from './ansi';
import { formatBytes, formatDuration } from '../../../shared/format';
import { languageOf } from './languages';
import { DEFAULT_ROUTE, parseRoute, routeToSearch } from './route';

describe('route', () => {
  it('round-trips a run view deep link and drops what is default', () => {
    const route = {
      view: 'run' as const,
      repo: '/home/user/js stats',
      run: '20261122T033735Z',
      tab: 'changes' as const,
      range: 'a'.repeat(40),
      file: 'src/a.js',
      followUp: null,
    };
    const search = routeToSearch(route);
    expect(search).toBe(
      `?repo=%2Fhome%2Fuser%2Fjs+stats&run=20261122T033735Z&tab=changes&range=${'a'.repeat(40)}&file=src%2Fa.js`,
    );
    expect(parseRoute(search)).toEqual(route);
    expect(routeToSearch(DEFAULT_ROUTE)).toBe('');
  });

  it('reads the launch link of `lathe serve --repo` and refuses unknown values', () => {
    expect(parseRoute('?repo=/r&token=abc')).toEqual({ ...DEFAULT_ROUTE, repo: '/r' });
    expect(parseRoute('?view=run&tab=nonsense')).toEqual(DEFAULT_ROUTE);
    expect(parseRoute('?view=settings').view).toBe('settings');
  });

  it('carries a follow-up to the New run form, and only there', () => {
    const route = { ...DEFAULT_ROUTE, repo: '/r', followUp: '20261122T033735Z' };
    expect(routeToSearch(route)).toBe('?repo=%2Fr&follow-up=20261122T033735Z');
    expect(parseRoute(routeToSearch(route))).toEqual(route);
    expect(parseRoute('?view=history&follow-up=20261122T033735Z').followUp).toBeNull();
  });
});

describe('ansi', () => {
  it('turns colour codes into class names and keeps the text', () => {
    expect(ansiSpans('\u001b[31m✖ failing\u001b[39m ok \u001b[1;32mgreen\u001b[0m')).toEqual([
      { text: '✖ failing', className: 'ansi-red-fg' },
      { text: ' ok ', className: '' },
      { text: 'green', className: 'ansi-green-fg ansi-bold' },
    ]);
    expect(stripAnsi('\u001b[31mred\u001b[0m')).toBe('red');
  });

  it('never turns output into markup', () => {
    expect(ansiSpans('<img src=x onerror=alert(1)>')).toEqual([
      { text: '<img src=x onerror=alert(1)>', className: '' },
    ]);
  });

  it('finds the line of the first failure', () => {
    const lines = [
      '✔ mean of a list',
      'ok 2 - median is fine',
      '\u001b[31m✖ median is the middle value (1ms)\u001b[39m',
      '  AssertionError',
    ];
    expect(firstFailureLine(lines, 'median is the middle value')).toBe(2);
    expect(firstFailureLine(lines, 'nowhere')).toBe(-1);
    expect(firstFailureLine(lines, null)).toBe(-1);
  });
});

describe('languages', () => {
  it('picks Monaco languages by extension', () => {
    expect(languageOf('src/stats.js')).toBe('javascript');
    expect(languageOf('a/b.test.ts')).toBe('typescript');
    expect(languageOf('README.md')).toBe('markdown');
    expect(languageOf('Makefile')).toBe('plaintext');
  });
});

describe('format', () => {
  it('formats sizes and durations', () => {
    expect(formatBytes(1117320736)).toBe('1.0 GiB');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatDuration(150)).toBe('0.1 s');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(185_000)).toBe('3 min 05 s');
    expect(formatDuration(3_720_000)).toBe('1 h 02 min');
  });
});
