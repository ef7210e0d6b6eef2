/**
 * The workspace layer's contract with the engine: everything Lathe does to a user's repository goes
 * through these facades. Failures are LatheError (code + plain data) with the codes named here.
 * Each layer of the foundation keeps its own part; this file gathers them for the layers above.
 */
export { GUARDRAIL_RULES, type GuardrailRule } from '../basics/rejection';
export * from '../edits/types';
export * from '../git/types';
export * from '../verifier/types';
export * from '../tools/types';
