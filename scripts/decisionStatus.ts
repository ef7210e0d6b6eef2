/** Why a decisions document's status lines are wrong: one sentence each, none when all are right. */
export function decisionStatusProblems(doc: string): string[] {
  const lines = doc.split('\n');
  const titles = lines.flatMap((line, index) => {
    const match = /^## (\d+)\. /.exec(line);
    return match?.[1] ? [{ number: Number(match[1]), next: lines[index + 1] ?? '' }] : [];
  });
  const numbers = new Set(titles.map((title) => title.number));
  return titles.flatMap(({ number, next }) => {
    if (!next.startsWith('Status:')) return [`decision ${number}: no status line right under its title`];
    const match = /^Status: (?:in force|(?:replaced|amended) by (\d+(?:, \d+)*))$/.exec(next);
    if (!match) return [`decision ${number}: '${next}' is not 'in force', 'replaced by N' or 'amended by N, M'`];
    const named = match[1] ? match[1].split(', ').map(Number) : [];
    return named.flatMap((other) => {
      if (other === number) return [`decision ${number}: names itself`];
      return numbers.has(other) ? [] : [`decision ${number}: names decision ${other}, which does not exist`];
    });
  });
}
