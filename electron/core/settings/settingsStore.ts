import fs from 'node:fs';
import path from 'node:path';
import { SettingsSchema, type Settings, type SettingsPatch } from '../../../shared/schemas/settings';
import { writeFileAtomic } from '../engine/runStore';
import { isMissing, unreadable } from '../fsErrors';

const MAX_RECENT = 10;

/**
 * `<data dir>/settings.json`: validated on read and write; a corrupted file is set aside, never fatal.
 * One that is there but cannot be read (EACCES, EISDIR, EIO) is FILE_UNREADABLE: set aside, the user's
 * settings (their shell allowlist among them) would silently become the defaults.
 */
export class SettingsStore {
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'settings.json');
  }

  read(): Settings {
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(this.file, 'utf8'));
    } catch (error) {
      if (isMissing(error)) return SettingsSchema.parse({});
      if (!(error instanceof SyntaxError)) throw unreadable(this.file, error);
      this.setAside();
      return SettingsSchema.parse({});
    }
    const parsed = SettingsSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    this.setAside();
    return SettingsSchema.parse({});
  }

  update(patch: SettingsPatch): Settings {
    const next = SettingsSchema.parse({ ...this.read(), ...patch });
    this.write(next);
    return next;
  }

  addRecentRepo(repoPath: string, name: string, now = new Date()): Settings {
    const current = this.read();
    const recentRepos = [{ path: repoPath, name, openedAt: now.toISOString() }, ...current.recentRepos.filter((repo) => repo.path !== repoPath)].slice(0, MAX_RECENT);
    const next = { ...current, recentRepos };
    this.write(next);
    return next;
  }

  private write(settings: Settings): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    writeFileAtomic(this.file, `${JSON.stringify(settings, null, 2)}\n`);
  }

  private setAside(): void {
    try {
      fs.renameSync(this.file, `${this.file}.invalid-${Date.now()}`);
    } catch {
      // Nothing to keep.
    }
  }
}
