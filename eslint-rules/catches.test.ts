import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { catchKeepsCauseRule } from './catches.js';

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module' },
});

tester.run('catches/catch-keeps-cause', catchKeepsCauseRule, {
  valid: [
    // Names the error it expects and rethrows the rest.
    'try { read(); } catch (error) { if (!isMissing(error)) throw error; }',
    'const text = await read().catch(whenMissing(null));',
    'const text = await read().catch((error: unknown) => { if (isMissing(error)) return null; throw error; });',
    // Passes the error on, or answers something other than an empty value for it.
    'try { run(); } catch (error) { log(error); }',
    'await run().catch((error) => report(error));',
    'await rm(file).catch(() => unrestored.push(file));',
    'const grammar = create(gbnf).catch(() => create(relax(gbnf)));',
    // Says why it drops the error, on the catch's lines or the line before.
    'try { run(); } catch { // catch-ok: the first error is the one reported\n}',
    'try { run(); } catch {\n  // catch-ok: display only, the reason is shown elsewhere\n  return null;\n}',
    '// catch-ok: cleanup after a failure; the first error is the one reported\nawait unlink(temp).catch(() => undefined);',
    'await unlink(temp).catch(() => undefined); // catch-ok: cleanup after a failure, first error reported',
    'const names = await fs.promises\n  .readdir(dir)\n  // catch-ok: an absent or locked folder holds nothing to prune\n  .catch(() => []);',
  ],
  invalid: [
    { code: 'try { run(); } catch { return null; }', errors: [{ messageId: 'clause' }] },
    { code: 'try { run(); } catch (error) { return null; }', errors: [{ messageId: 'clause' }] },
    { code: 'for (const f of files) { try { run(f); } catch { continue; } }', errors: [{ messageId: 'clause' }] },
    { code: 'const x = await read().catch(() => null);', errors: [{ messageId: 'handler' }] },
    { code: 'const x = await read().catch(() => [] as string[]);', errors: [{ messageId: 'handler' }] },
    { code: 'const x = await read().catch((_error) => false);', errors: [{ messageId: 'handler' }] },
    { code: "const x = await read().catch(() => '');", errors: [{ messageId: 'handler' }] },
    { code: 'await read().catch(() => undefined);', errors: [{ messageId: 'handler' }] },
    { code: 'await read().catch(() => {});', errors: [{ messageId: 'handler' }] },
    { code: 'await read().catch(function () { return null; });', errors: [{ messageId: 'handler' }] },
    // An allow comment needs a reason, and one far away does not count.
    { code: 'try { run(); } catch { // catch-ok:\n}', errors: [{ messageId: 'clause' }] },
    {
      code: '// catch-ok: far above, about something else\n\nawait read().catch(() => null);',
      errors: [{ messageId: 'handler' }],
    },
  ],
});

describe('catches/catch-keeps-cause in a lint run', () => {
  it('reports a swallowed catch once, with the mend in its message, and passes a named one', () => {
    const linter = new Linter({ configType: 'flat' });
    const config = [
      {
        languageOptions: { parser: tseslint.parser, ecmaVersion: 2024 as const, sourceType: 'module' as const },
        plugins: { catches: { rules: { 'catch-keeps-cause': catchKeepsCauseRule } } },
        rules: { 'catches/catch-keeps-cause': 'error' as const },
      },
    ];
    const swallowed = linter.verify('await read().catch(() => null);', config);
    expect(swallowed).toHaveLength(1);
    expect(swallowed[0]?.message).toMatch(/name the one expected|catch-ok/);
    expect(linter.verify('await read().catch(whenMissing(null));', config)).toEqual([]);
  });
});
