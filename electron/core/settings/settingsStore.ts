import fs from 'node:fs';
import path from 'node:path';
import {
  SettingsSchema,
  type Settings,
  type SettingsPatch,
  type SettingsRead,
  type SettingsSetAside,
} from '../../../shared/schemas/settings';
import { writeFileAtomic } from '../basics/atomicWrite';
import { isMissing, unreadable } from '../fsErrors';

const MAX_RECENT = 10;

/**
 * `<data dir>/settings.json`: validated on read and write; a corrupted file is set aside, never fatal,
 * and the store remembers it (`setAside`) so the CLI and the window can tell the user their settings
 * were replaced by the defaults. One that is there but cannot be read (EACCES, EISDIR, EIO) is
 * FILE_UNREADABLE: set aside, the user's settings (their shell allowlist among them) would silently
 * become the defaults.
 */
export class SettingsStore {
  private readonly file: string;
  private setAsideFile: SettingsSetAside | null = null;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'settings.json');
  }

  /** The file this store set aside to use the defaults, until settings are saved anew (`update`). */
  get setAside(): SettingsSetAside | null {
    return this.setAsideFile;
  }

  read(): Settings {
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(this.file, 'utf8'));
    } catch (error) {
      if (isMissing(error)) return SettingsSchema.parse({});
      if (!(error instanceof SyntaxError)) throw unreadable(this.file, error);
      this.putAside(`not JSON: ${error.message}`);
      return SettingsSchema.parse({});
    }
    const parsed = SettingsSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    this.putAside(`${issue?.path.join('.') || '(top level)'}: ${issue?.message ?? 'invalid'}`);
    return SettingsSchema.parse({});
  }

  /** What `settings/get` answers: the settings and the file set aside to get them, if any. */
  readWithNotice(): SettingsRead {
    const settings = this.read();
    return { ...settings, setAside: this.setAsideFile };
  }

  update(patch: SettingsPatch): Settings {
    const next = SettingsSchema.parse({ ...this.read(), ...patch });
    this.write(next);
    // The user has now chosen settings of their own: the defaults are no longer standing in.
    this.setAsideFile = null;
    return next;
  }

  addRecentRepo(repoPath: string, name: string, now = new Date()): Settings {
    const current = this.read();
    const recentRepos = [
      { path: repoPath, name, openedAt: now.toISOString() },
      ...current.recentRepos.filter((repo) => repo.path !== repoPath),
    ].slice(0, MAX_RECENT);
    const next = { ...current, recentRepos };
    this.write(next);
    return next;
  }

  private write(settings: Settings): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    writeFileAtomic(this.file, `${JSON.stringify(settings, null, 2)}\n`);
  }

  private putAside(reason: string): void {
    const movedTo = `${this.file}.invalid-${Date.now()}`;
    try {
      fs.renameSync(this.file, movedTo);
      this.setAsideFile = { file: this.file, movedTo, reason: reason.slice(0, 1000) };
    } catch (error) {
      // Gone meanwhile: nothing to keep and nothing to tell. Otherwise the defaults stand in all the same.
      if (!isMissing(error)) this.setAsideFile = { file: this.file, movedTo: null, reason: reason.slice(0, 1000) };
    }
  }
}
