import { describe, expect, it } from 'vitest';
import { licenseText } from './licenseFile';

const repoWith = (files: Record<string, string>) => (name: string) => files[name] ?? null;

describe('licenseText: the license a corpus keeps beside a bundle', () => {
  it('keeps the one license file a repository has', () => {
    expect(licenseText(repoWith({ LICENSE: 'MIT License\n', 'README.md': '# x' }))).toBe('MIT License\n');
    expect(licenseText(repoWith({ 'license.md': 'ISC\n' }))).toBe('ISC\n');
  });

  it('keeps both texts of a dual-licensed crate, each under its file name', () => {
    expect(licenseText(repoWith({ 'LICENSE-MIT': 'MIT text\n', 'LICENSE-APACHE': 'Apache text\n\n' }))).toBe(
      '==> LICENSE-MIT <==\nMIT text\n\n==> LICENSE-APACHE <==\nApache text\n',
    );
    expect(licenseText(repoWith({ 'LICENSE-MIT': 'MIT text\n' }))).toBe('MIT text\n');
  });

  it('has none when the repository keeps no license file', () => {
    expect(licenseText(repoWith({ 'README.md': '# x' }))).toBeNull();
  });
});
