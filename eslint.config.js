// ESLint flat config: typescript-eslint's type-checked rules over every TypeScript file tsconfig.json includes.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.local/', 'coverage/', 'bench/tmp/', 'bench/results/', 'docs/'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      // The project service reuses tsconfig.json's one program, so type-aware linting costs about one `tsc --noEmit`.
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // Handlers, ports and test doubles are async to fulfil a Promise-returning contract even when their body awaits nothing.
      '@typescript-eslint/require-await': 'off',
      // A leading underscore marks a parameter a signature requires; a rest sibling names what a destructuring leaves out.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true, caughtErrors: 'none' }],
      // Passing on a caught `unknown` keeps the original error; wrapping it would change what callers see.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    files: ['test/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Tests, the bench, the soak and local emulators read untyped JSON answers (`any`) and check them field by field; typing every body twice adds nothing.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: [
      'infra/constructs/webhook-delivery.ts',
      'shared/db/reads.ts',
      'shared/domain/money/credit.ts',
      'shared/domain/money/gift-cards.ts',
      'shared/domain/money/ledger-audit.ts',
      'shared/domain/identity/password-resets.ts',
      'shared/domain/pos/gift-card-removals.ts',
      'shared/openapi/document.ts',
      'shared/openapi/examples.ts',
      'shared/schemas/pos-money.ts',
    ],
    rules: {
      // Stored items and JSON Schemas are `Record<string, any>` here today; typing them as `unknown` is its own change. Every other file is checked.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
);
