import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';

/** Screenshots of each screen, kept in test-results/screens/ (outside Playwright's emptied output folder). */
export const SCREENS_DIR = path.resolve('test-results', 'screens');

export async function screen(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  const file = path.join(SCREENS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true });
  return file;
}

/** Collects page errors and CSP violations (the page reports each one on the console); the spec asserts none happened. */
export function watchPageProblems(page: Page): string[] {
  const problems: string[] = [];
  void page.addInitScript({
    content:
      "document.addEventListener('securitypolicyviolation', (event) => console.error('Content Security Policy violation: ' + event.violatedDirective + ' ' + event.blockedURI + ' at ' + event.sourceFile + ':' + event.lineNumber + ':' + event.columnNumber));",
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(text)) problems.push(`CSP: ${text}`);
  });
  return problems;
}
