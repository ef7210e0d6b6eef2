import fs from 'node:fs';
import path from 'node:path';
import { LatheError } from '../../../shared/errors';

/** Prompts are data: `prompts/<name>.md`, read at run time so a user can tune them without a build. */
export class PromptLibrary {
  private readonly cache = new Map<string, string>();

  constructor(readonly dir: string) {}

  get(name: string): string {
    const cached = this.cache.get(name);
    if (cached !== undefined) return cached;
    if (!/^[a-z0-9-]+(\/[a-z0-9-]+)?$/.test(name)) throw new LatheError('PROMPT_MISSING', `invalid prompt name: ${name}`);
    const file = path.join(this.dir, `${name}.md`);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8').trim();
    } catch {
      throw new LatheError('PROMPT_MISSING', `prompt file missing: ${file}`, { file });
    }
    this.cache.set(name, text);
    return text;
  }

  /** The system message of a role: the shared rules first, so every role shares a cacheable prefix. */
  system(...names: string[]): string {
    return ['system', ...names].map((name) => this.get(name)).join('\n\n');
  }
}
