import type { ChatMessage, ContextItem } from '../types';
import type { VisibleFile } from './editAnswers';

const INPUT_PREFIX = 'Input:\n';
const FILE_ID_PREFIX = 'file:';
const TRUNCATION_MARK = '\n… (truncated)';

/**
 * The input object of an agent call, as the agents layer writes it: the first user message begins with
 * `Input:` and the pretty-printed JSON, whose only line-start `}` is its last (strings never hold raw
 * newlines). Null when the message is not shaped that way.
 */
export function requestInput(messages: readonly ChatMessage[]): Record<string, unknown> | null {
  const user = messages.find((message) => message.role === 'user')?.content ?? '';
  if (!user.startsWith(INPUT_PREFIX)) return null;
  const body = user.slice(INPUT_PREFIX.length);
  const end = body.startsWith('{}') ? 2 : body.indexOf('\n}') + 2;
  if (end < 2) return null;
  try {
    const value: unknown = JSON.parse(body.slice(0, end));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The files a context shows, read back from the items `contextFiles` makes (`file:<path>` ids, the
 * content in a fence under a `### <path>` heading, a cut file marked at its end). Other items are notes.
 */
export function visibleFiles(items: readonly ContextItem[]): Map<string, VisibleFile> {
  const files = new Map<string, VisibleFile>();
  for (const item of items) {
    if (!item.id.startsWith(FILE_ID_PREFIX)) continue;
    const filePath = item.id.slice(FILE_ID_PREFIX.length);
    const head = `### ${filePath}\n\`\`\`\n`;
    const tail = '\n```\n';
    if (!item.text.startsWith(head) || !item.text.endsWith(tail) || item.text.length < head.length + tail.length) continue;
    const body = item.text.slice(head.length, item.text.length - tail.length);
    const truncated = body.endsWith(TRUNCATION_MARK);
    files.set(filePath, { content: truncated ? body.slice(0, -TRUNCATION_MARK.length) : body, truncated });
  }
  return files;
}
