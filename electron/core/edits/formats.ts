import { LatheError } from '../../../shared/errors';
import { EDIT_FORMAT_NAMES, type EditFormat, type EditFormatName } from './types';
import { searchReplaceFormat } from './searchReplace';
import { unifiedDiffFormat } from './unifiedDiff';
import { wholeFileFormat } from './wholeFile';

/** The named, swappable edit strategies; each format's proposal type is its own schema's. */
export const editFormats: { [N in EditFormatName]: EditFormat } = {
  'whole-file': wholeFileFormat as EditFormat,
  'unified-diff': unifiedDiffFormat as EditFormat,
  'search-replace': searchReplaceFormat as EditFormat,
};

export function getEditFormat(name: string): EditFormat {
  if (!(EDIT_FORMAT_NAMES as readonly string[]).includes(name)) {
    throw new LatheError('UNKNOWN_EDIT_FORMAT', `unknown edit format: ${name.slice(0, 100)}`, {
      name: name.slice(0, 100),
      known: [...EDIT_FORMAT_NAMES],
    });
  }
  return editFormats[name as EditFormatName];
}
