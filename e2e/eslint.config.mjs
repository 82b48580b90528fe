// The lint of gridplay's JavaScript: the browser's modules (crates/server/web), their node tests
// (crates/server/web-tests) and the browser tests (e2e). Run from the repository's root by scripts/js-check.
import js from '@eslint/js';
import globals from 'globals';

export default [
  js.configs.recommended,
  {
    files: ['crates/server/web/**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.browser } },
  },
  {
    files: ['crates/server/web-tests/**/*.mjs', 'e2e/**/*.mjs'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
  },
  { ignores: ['e2e/node_modules/**', 'e2e/artifacts/**'] },
];
