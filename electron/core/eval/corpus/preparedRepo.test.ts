import { describe, expect, it } from 'vitest';
import { setupEnv } from './preparedRepo';

describe("a corpus task's setup installs what its repository declares, whatever the caller's shell says", () => {
  it('drops what makes npm leave dev dependencies out, and keeps the rest', () => {
    const env = setupEnv({ PATH: '/usr/bin', HOME: '/root', NODE_ENV: 'production', npm_config_omit: 'dev', npm_config_production: 'true', npm_config_cache: '/root/.npm' });
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/root', npm_config_cache: '/root/.npm', npm_config_update_notifier: 'false' });
  });
});
