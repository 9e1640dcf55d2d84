// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { boundaries } from './eslint.boundaries.mjs';

const browserGlobals = Object.fromEntries(
  ['document', 'window', 'fetch', 'EventSource', 'Event', 'URL', 'setTimeout', 'clearTimeout', 'console'].map((name) => [name, 'readonly']),
);
const nodeGlobals = Object.fromEntries(['module', 'require', 'process', '__dirname', 'console'].map((name) => [name, 'readonly']));

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  // The local page: plain ES modules served to the browser as they are.
  { files: ['src/local/web/**/*.js'], languageOptions: { globals: browserGlobals } },
  { files: ['*.js', '*.cjs', '*.mjs'], languageOptions: { globals: nodeGlobals } },
  // Tests and benchmarks may reach into loosely typed bodies and load compiled builds with require().
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
  // The architecture (README "Layout"): which room may import which.
  ...boundaries,
);
