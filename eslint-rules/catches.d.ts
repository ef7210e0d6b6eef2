/** Types for eslint-rules/catches.js (plain JS: eslint.config.js loads it without a build). */
import type { Rule } from 'eslint';

export const catchKeepsCauseRule: Rule.RuleModule;
declare const plugin: { rules: Record<string, Rule.RuleModule> };
export default plugin;
