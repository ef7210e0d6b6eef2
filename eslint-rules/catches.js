// A catch that drops its error erases the cause: "cannot read" passes for "not there", and the user is told
// nothing or the wrong thing (decisions 64, 75, 77, 103). A catch must look at its error — name the one it
// expects (isMissing, whenMissing, errno, isLatheError…) and rethrow the rest — or say why it need not with
// a `// catch-ok: <reason>` comment on the catch's lines or the line before.

const ALLOW = /\bcatch-ok:\s*\S.{7,}/;

/** @param {any} node an expression: is it a value that says nothing (null, undefined, false, '', 0, [], {}, void x)? */
function isEmptyValue(node) {
  if (!node) return true;
  if (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression' || node.type === 'TSNonNullExpression')
    return isEmptyValue(node.expression);
  if (node.type === 'Literal')
    return node.value === null || node.value === false || node.value === '' || node.value === 0;
  if (node.type === 'Identifier') return node.name === 'undefined';
  if (node.type === 'ArrayExpression') return node.elements.length === 0;
  if (node.type === 'ObjectExpression') return node.properties.length === 0;
  if (node.type === 'UnaryExpression') return node.operator === 'void';
  return false;
}

/** @param {any} fn a `.catch` handler: does it answer an empty value? */
function answersEmpty(fn) {
  if (fn.body.type !== 'BlockStatement') return isEmptyValue(fn.body);
  const statements = fn.body.body;
  return (
    statements.length === 0 ||
    (statements.length === 1 && statements[0].type === 'ReturnStatement' && isEmptyValue(statements[0].argument))
  );
}

/** @type {import('eslint').Rule.RuleModule} */
export const catchKeepsCauseRule = {
  meta: {
    type: 'problem',
    docs: { description: 'a catch names the error it expects and rethrows the rest, or says why it drops it' },
    schema: [],
    messages: {
      clause:
        'this catch drops its error without naming the one it expects: test it (isMissing, errnoOf, isLatheError…) and rethrow the rest, or say why with `// catch-ok: <reason>`',
      handler:
        '`.catch` answers an empty value for any error: name the one expected (whenMissing, whenErrno…) or say why with `// catch-ok: <reason>`',
    },
  },
  create(context) {
    const source = context.sourceCode;
    const allowedLines = new Set(
      source
        .getAllComments()
        .filter((comment) => ALLOW.test(comment.value))
        .flatMap((comment) => {
          const lines = [];
          for (let line = comment.loc.start.line; line <= comment.loc.end.line; line += 1) lines.push(line);
          return lines;
        }),
    );
    /** @param {any} node */
    const allowed = (node) => {
      for (let line = node.loc.start.line - 1; line <= node.loc.end.line; line += 1)
        if (allowedLines.has(line)) return true;
      return false;
    };
    /** @param {any} node a catch clause or handler function: is its error parameter read? */
    const readsError = (node) => {
      const param = node.type === 'CatchClause' ? node.param : node.params[0];
      if (!param) return false;
      if (param.type !== 'Identifier') return true;
      const variable = source.getDeclaredVariables(node).find((declared) => declared.name === param.name);
      return variable ? variable.references.length > 0 : true;
    };
    return {
      CatchClause(node) {
        if (!readsError(node) && !allowed(node)) context.report({ node, messageId: 'clause' });
      },
      CallExpression(node) {
        const callee = node.callee;
        const handler = node.arguments[0];
        if (
          callee.type !== 'MemberExpression' ||
          callee.computed ||
          callee.property.type !== 'Identifier' ||
          callee.property.name !== 'catch'
        )
          return;
        if (!handler || (handler.type !== 'ArrowFunctionExpression' && handler.type !== 'FunctionExpression')) return;
        if (!readsError(handler) && answersEmpty(handler) && !allowed(node))
          context.report({ node: handler, messageId: 'handler' });
      },
    };
  },
};

export default { rules: { 'catch-keeps-cause': catchKeepsCauseRule } };
