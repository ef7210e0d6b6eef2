import fs from 'node:fs';
import path from 'node:path';
import { LatheError } from '../../../shared/errors';
import { isMissing, unreadable } from '../fsErrors';

/** Prompts are data: `prompts/<name>.md`, read at run time so a user can tune them without a build. */
export class PromptLibrary {
  private readonly cache = new Map<string, string>();

  constructor(readonly dir: string) {}

  get(name: string): string {
    const cached = this.cache.get(name);
    if (cached !== undefined) return cached;
    if (!/^[a-z0-9-]+(\/[a-z0-9-]+)?$/.test(name))
      throw new LatheError('PROMPT_MISSING', `invalid prompt name: ${name}`);
    const file = path.join(this.dir, `${name}.md`);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8').trim();
    } catch (error) {
      if (!isMissing(error)) throw unreadable(file, error);
      throw new LatheError('PROMPT_MISSING', `prompt file missing: ${file}`, { file });
    }
    this.cache.set(name, text);
    return text;
  }

  /** A prompt that is a list (`- item` lines), as its items: the Supervisor's criteria. */
  list(name: string): string[] {
    const items = this.get(name)
      .split('\n')
      .filter((line) => line.startsWith('- '))
      .map((line) => line.slice(2).trim());
    if (items.length === 0)
      throw new LatheError('PROMPT_MISSING', `prompt ${name} lists nothing (expected "- " lines)`, { name });
    return items;
  }

  /** The system message of a role: the shared rules first, so every role shares a cacheable prefix. */
  system(...names: string[]): string {
    return ['system', ...names].map((name) => this.get(name)).join('\n\n');
  }

  /** A prompt's short form (`<name>-short.md`) for a small window, else the prompt itself. */
  short(name: string): string {
    const shortName = `${name}-short`;
    if (!this.cache.has(shortName) && !fs.existsSync(path.join(this.dir, `${shortName}.md`))) return this.get(name);
    return this.get(shortName);
  }

  /** The system message in the short forms: what a role must know when the window is small. */
  shortSystem(...names: string[]): string {
    return ['system', ...names].map((name) => this.short(name)).join('\n\n');
  }
}
