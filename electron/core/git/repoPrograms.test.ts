import { describe, expect, it } from 'vitest';
import { filterDrivers, parseConfigListing, programOverrides, PROGRAMS_OFF } from './repoPrograms';

const LISTING = [
  ['system', 'credential.https://source.example.com.helper', 'gcloud.sh'],
  ['global', 'credential.helper', 'store'],
  ['global', 'filter.lfs.clean', 'git-lfs clean -- %f'],
  ['local', 'credential.helper', '/tmp/evil'],
  ['local', 'credential.https://github.com.helper', '/tmp/evil2'],
  ['local', 'filter.Crypt.smudge', 'git-crypt smudge'],
  ['local', 'filter.empty.clean', ''],
  ['local', 'diff.pics.textconv', 'exif'],
  ['local', 'user.name', 'multi\nline'],
]
  .map(([scope, key, value]) => `${scope}\0${key}\n${value}\0`)
  .join('');

describe('the overrides that keep config-named programs off', () => {
  const entries = parseConfigListing(LISTING);

  it('parses scope, key and a value that spans lines', () => {
    expect(entries).toHaveLength(9);
    expect(entries[8]).toEqual({ scope: 'local', key: 'user.name', value: 'multi\nline' });
  });

  it('switches off every filter and diff driver the config defines, keeping the subsection as written', () => {
    const settings = programOverrides(entries).filter((_, index) => index % 2 === 1);
    expect(settings.slice(0, PROGRAMS_OFF.length)).toEqual([...PROGRAMS_OFF]);
    expect(settings).toEqual(
      expect.arrayContaining([
        'filter.lfs.clean=',
        'filter.lfs.smudge=',
        'filter.lfs.process=',
        'filter.lfs.required=false',
        'filter.Crypt.smudge=',
        'diff.pics.textconv=',
        'diff.pics.command=',
      ]),
    );
    expect(filterDrivers(entries)).toEqual(new Set(['lfs', 'Crypt']));
  });

  it("names the user's own credential helpers again after the reset, never the repository's", () => {
    const settings = programOverrides(entries).filter((_, index) => index % 2 === 1);
    const helpers = settings
      .slice(settings.indexOf('credential.helper='))
      .filter((setting) => setting.startsWith('credential.'));
    expect(helpers).toEqual([
      'credential.helper=',
      'credential.https://source.example.com.helper=gcloud.sh',
      'credential.helper=store',
    ]);
  });
});
