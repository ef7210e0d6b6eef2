/**
 * A small recognizer for the GBNF subset Lathe's grammar compiler emits (literals, classes, groups,
 * alternatives, rule references, ? * + {m} {m,} {m,n}). Tests use it to check that a grammar accepts
 * exactly the JSON it should, without running a model.
 */

type Expr =
  | { kind: 'literal'; codePoints: number[] }
  | { kind: 'class'; negated: boolean; ranges: Array<[number, number]> }
  | { kind: 'ref'; name: string }
  | { kind: 'seq'; items: Expr[] }
  | { kind: 'alt'; options: Expr[] }
  | { kind: 'repeat'; expr: Expr; min: number; max: number | null };

class GbnfParser {
  private pos = 0;
  constructor(private readonly text: string) {}

  rules(): Map<string, Expr> {
    const rules = new Map<string, Expr>();
    for (const line of this.text.split('\n')) {
      const match = /^([A-Za-z0-9_-]+)\s*::=\s?(.*)$/.exec(line);
      if (!match) {
        if (line.trim() !== '') throw new Error(`not a rule: ${line}`);
        continue;
      }
      const parser = new GbnfParser(match[2] ?? '');
      rules.set(match[1] ?? '', parser.alternatives());
      if (parser.pos < parser.text.length) throw new Error(`unparsed rest in ${match[1]}: ${parser.text.slice(parser.pos)}`);
    }
    return rules;
  }

  private skipSpace(): void {
    while (this.text[this.pos] === ' ') this.pos++;
  }

  private alternatives(): Expr {
    const options = [this.sequence()];
    this.skipSpace();
    while (this.text[this.pos] === '|') {
      this.pos++;
      options.push(this.sequence());
      this.skipSpace();
    }
    return options.length === 1 ? (options[0] as Expr) : { kind: 'alt', options };
  }

  private sequence(): Expr {
    const items: Expr[] = [];
    for (;;) {
      this.skipSpace();
      const char = this.text[this.pos];
      if (char === undefined || char === '|' || char === ')') break;
      items.push(this.postfix(this.atom()));
    }
    return { kind: 'seq', items };
  }

  private postfix(expr: Expr): Expr {
    const char = this.text[this.pos];
    if (char === '?') return this.pos++, { kind: 'repeat', expr, min: 0, max: 1 };
    if (char === '*') return this.pos++, { kind: 'repeat', expr, min: 0, max: null };
    if (char === '+') return this.pos++, { kind: 'repeat', expr, min: 1, max: null };
    const match = /^\{(\d+)(,(\d*))?\}/.exec(this.text.slice(this.pos));
    if (!match) return expr;
    this.pos += match[0].length;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === '' ? null : Number(match[3]);
    return { kind: 'repeat', expr, min, max };
  }

  private atom(): Expr {
    const char = this.text[this.pos];
    if (char === '"') {
      this.pos++;
      const codePoints: number[] = [];
      while (this.text[this.pos] !== '"') codePoints.push(this.char());
      this.pos++;
      return { kind: 'literal', codePoints };
    }
    if (char === '[') {
      this.pos++;
      const negated = this.text[this.pos] === '^';
      if (negated) this.pos++;
      const ranges: Array<[number, number]> = [];
      while (this.text[this.pos] !== ']') {
        const lo = this.char();
        if (this.text[this.pos] === '-' && this.text[this.pos + 1] !== ']') {
          this.pos++;
          ranges.push([lo, this.char()]);
        } else ranges.push([lo, lo]);
      }
      this.pos++;
      return { kind: 'class', negated, ranges };
    }
    if (char === '(') {
      this.pos++;
      const inner = this.alternatives();
      if (this.text[this.pos] !== ')') throw new Error(`unclosed group at ${this.pos}`);
      this.pos++;
      return inner;
    }
    const name = /^[A-Za-z0-9_-]+/.exec(this.text.slice(this.pos))?.[0];
    if (!name) throw new Error(`unexpected '${char}' at ${this.pos} in ${this.text}`);
    this.pos += name.length;
    return { kind: 'ref', name };
  }

  private char(): number {
    const char = this.text[this.pos];
    if (char === undefined) throw new Error('unterminated literal');
    if (char !== '\\') {
      const codePoint = this.text.codePointAt(this.pos) ?? 0;
      this.pos += codePoint > 0xffff ? 2 : 1;
      return codePoint;
    }
    const next = this.text[this.pos + 1];
    this.pos += 2;
    const hexLength = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0;
    if (hexLength > 0) {
      const value = parseInt(this.text.slice(this.pos, this.pos + hexLength), 16);
      this.pos += hexLength;
      return value;
    }
    const escapes: Record<string, number> = { n: 10, r: 13, t: 9, '\\': 92, '"': 34, '[': 91, ']': 93, '-': 45 };
    const value = escapes[next ?? ''];
    if (value === undefined) throw new Error(`unknown escape \\${next}`);
    return value;
  }
}

export interface GbnfMatcher {
  matches(text: string): boolean;
}

export function gbnfMatcher(grammar: string, rootRule = 'root'): GbnfMatcher {
  const rules = new GbnfParser(grammar).rules();
  if (!rules.has(rootRule)) throw new Error(`no ${rootRule} rule`);
  return {
    matches(text: string): boolean {
      const input = [...text].map((char) => char.codePointAt(0) ?? 0);
      const memo = new Map<string, Set<number>>();
      const run = (expr: Expr, pos: number): Set<number> => {
        switch (expr.kind) {
          case 'literal': {
            const ok = expr.codePoints.every((codePoint, index) => input[pos + index] === codePoint);
            return ok ? new Set([pos + expr.codePoints.length]) : new Set();
          }
          case 'class': {
            const codePoint = input[pos];
            if (codePoint === undefined) return new Set();
            const inside = expr.ranges.some(([lo, hi]) => codePoint >= lo && codePoint <= hi);
            return inside !== expr.negated ? new Set([pos + 1]) : new Set();
          }
          case 'ref': {
            const key = `${expr.name}@${pos}`;
            const known = memo.get(key);
            if (known) return known;
            const rule = rules.get(expr.name);
            if (!rule) throw new Error(`undefined rule ${expr.name}`);
            memo.set(key, new Set());
            const result = run(rule, pos);
            memo.set(key, result);
            return result;
          }
          case 'seq': {
            let positions = new Set([pos]);
            for (const item of expr.items) {
              const next = new Set<number>();
              for (const at of positions) for (const end of run(item, at)) next.add(end);
              positions = next;
              if (positions.size === 0) break;
            }
            return positions;
          }
          case 'alt': {
            const ends = new Set<number>();
            for (const option of expr.options) for (const end of run(option, pos)) ends.add(end);
            return ends;
          }
          case 'repeat': {
            const ends = new Set<number>(expr.min === 0 ? [pos] : []);
            let frontier = new Set([pos]);
            const seen = new Set([pos]);
            for (let count = 1; expr.max === null || count <= expr.max; count++) {
              const next = new Set<number>();
              for (const at of frontier) for (const end of run(expr.expr, at)) next.add(end);
              if (next.size === 0) break;
              if (count >= expr.min) for (const end of next) ends.add(end);
              // Past the minimum, positions already reached add nothing new.
              frontier = count >= expr.min ? new Set([...next].filter((end) => !seen.has(end))) : next;
              for (const end of next) seen.add(end);
              if (frontier.size === 0) break;
            }
            return ends;
          }
        }
      };
      return run({ kind: 'ref', name: rootRule }, 0).has(input.length);
    },
  };
}
