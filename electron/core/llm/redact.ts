/**
 * Text a run records for people to read (its agent calls) may quote a file or an answer holding a key:
 * the model server's token, any environment value whose name says it is secret, and strings shaped
 * like well-known API keys are replaced before anything is written.
 */
const REDACTED = '[redacted]';

/** Environment names whose values are credentials by convention. */
const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL)/i;
/** Shorter values are too likely to occur by chance (`true`, a port) to be replaced everywhere. */
const MIN_SECRET_LENGTH = 8;

const KEY_PATTERNS: RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
];
const BEARER = /\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi;

export type Redact = (text: string) => string;

/** A redactor for this environment: `tokenEnv` names the model server's token variable (`models.token_env`). */
export function secretRedactor(env: Record<string, string | undefined>, tokenEnv: string | null): Redact {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    const trimmed = value?.trim() ?? '';
    if ((name === tokenEnv || SECRET_NAME.test(name)) && trimmed.length >= MIN_SECRET_LENGTH) values.add(trimmed);
  }
  // Longest first, so a secret that contains another is replaced whole.
  const known = [...values].sort((a, b) => b.length - a.length);
  return (text) => {
    let result = text;
    for (const value of known) result = result.split(value).join(REDACTED);
    for (const pattern of KEY_PATTERNS) result = result.replace(pattern, REDACTED);
    return result.replace(BEARER, `$1${REDACTED}`);
  };
}
