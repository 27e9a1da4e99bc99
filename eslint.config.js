// Type-aware linting for the whole tree; formatting is Prettier's job (eslint-config-prettier turns off
// the rules that would fight it).
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['node_modules/', 'cdk.out/', '.data/', '.bench/', '.openapi/', 'coverage/', 'sdk/src/openapi-types.d.ts'],
  },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Off: an async function without await is how a port's Promise-returning method or a middy
      // middleware is written here, and `async` turns a synchronous throw into a rejection, which
      // callers rely on. The promise rules above are what catch real async mistakes.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // The e2e and integration tests read the API's JSON the way any HTTP client does, untyped, and
    // assert its shape with expect(); typing every response there would restate the contract that
    // test/e2e/contract.test.ts already checks against the OpenAPI document.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  { files: ['**/*.js'], extends: [tseslint.configs.disableTypeChecked] },
  prettier,
);
