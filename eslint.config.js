import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import catches from './eslint-rules/catches.js';
import lathe from './eslint-rules/layering.js';

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'resources/examples/**',
      'resources/eval/**',
      'eslint-rules/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { lathe },
    rules: {
      'lathe/layering': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // Product code keeps the cause of what it catches (decision 103); tests, scripts and benchmarks may drop it.
  {
    files: ['{electron,shared,renderer}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    plugins: { catches },
    rules: { 'catches/catch-keeps-cause': 'error' },
  },
  // A function says one thing (issue 31): product code and benchmarks split past 80 lines of code; tests are lists of cases.
  {
    files: ['{electron,shared,renderer,bench,scripts}/**/*.{ts,tsx,mts}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  // Playwright reads a fixture's parameter list to find its dependencies, so `{}` is required there.
  { files: ['e2e/**/*.ts', 'test-support/e2e/**/*.ts'], rules: { 'no-empty-pattern': 'off' } },
);
