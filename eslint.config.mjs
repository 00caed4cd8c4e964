// ESLint: the recommended rules of ESLint and typescript-eslint (without type information, so
// that a run stays quick), and the import boundaries of docs/ARCHITECTURE.md as
// `no-restricted-imports`, so that an editor flags a forbidden import while it is typed.
// test/architecture.test.ts is the complete check (every layer, type-only imports, dynamic
// imports); the patterns here mirror its rules for the folders where mistakes are likely.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Node.js's globals, for the few plain JavaScript modules (typescript-eslint leaves TypeScript's to the compiler). */
const nodeGlobals = Object.fromEntries(
  ['process', 'console', 'Buffer', 'URL', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'].map((name) => [name, 'readonly']),
);

/** One layer's forbidden imports, as `@typescript-eslint/no-restricted-imports` patterns. */
const boundary = (files, patterns) => ({
  files,
  ignores: ['**/*.test.ts', '**/*.test.tsx'],
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
});

const SDK_BY_NAME = {
  regex: '(^|/)sdk/src(/|$)',
  message: "Reach the server through the SDK by its package name: import from '@ledger-recon/sdk' (docs/ARCHITECTURE.md).",
};

export default defineConfig(
  {
    ignores: ['node_modules/', 'web/dist/', 'sdk/dist/', 'sdk/src/generated/', 'data/', 'test/fixtures/', 'docs/'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    rules: {
      // `_name` marks an argument a signature needs but the body does not use; `{ line, ...rest }`
      // is how a property is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // A timer declared before the callback that clears it, and set after, cannot be a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // The importers and the checks of names match control characters on purpose, to refuse them.
      'no-control-regex': 'off',
      // An initial value that every path then overwrites still says the variable's type and
      // meaning; the compiler already refuses a read before assignment.
      'no-useless-assignment': 'off',
    },
  },
  {
    // Tests read JSON answers whose shape they assert; typing each answer would add nothing.
    files: ['test/**', 'support/**', '**/*.test.ts', '**/*.test.tsx'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  boundary(
    ['src/domain/**'],
    [
      {
        regex: '(^|/)(http|cli)/',
        message: 'The domain knows nothing of HTTP or the command line (docs/ARCHITECTURE.md): http imports the domain, never the reverse.',
      },
      { regex: '(^|/)(app|server)\\.ts$', message: 'The domain does not import the application that wires it (docs/ARCHITECTURE.md).' },
    ],
  ),
  boundary(
    ['src/db/**'],
    [
      {
        regex: '(^|/)domain/(?!model\\.ts$)',
        message:
          'Storage imports nothing of the domain but types of src/domain/model.ts; move the shape there, or a constant its SQL needs into src/db (docs/ARCHITECTURE.md).',
      },
      {
        regex: '(^|/)domain/model\\.ts$',
        allowTypeImports: true,
        message: 'Storage imports only types from the domain model: write `import type` (docs/ARCHITECTURE.md).',
      },
      { regex: '(^|/)(http|cli)/', message: 'Storage knows nothing of HTTP or the command line (docs/ARCHITECTURE.md).' },
    ],
  ),
  boundary(
    ['src/http/**'],
    [{ regex: '(^|/)db/', message: 'http reaches storage only through the domain (src/domain/storage.ts re-exports what it may use; docs/ARCHITECTURE.md).' }],
  ),
  boundary(
    ['src/cli/client/**'],
    [
      SDK_BY_NAME,
      {
        regex: '^(\\.\\./)+((domain|db|http)/|(errors|config|app|server|runtime)\\.ts$)',
        message: 'The client commands reach the server only through the SDK, like any customer program (docs/ARCHITECTURE.md).',
      },
    ],
  ),
  boundary(
    ['web/src/**'],
    [SDK_BY_NAME, { regex: '(^|/)src/(domain|db|http)/', message: 'The web app reaches the server only through the SDK (docs/ARCHITECTURE.md).' }],
  ),
  boundary(
    ['bench/**', 'scripts/**', 'support/**'],
    [{ regex: '(^|/)test/', message: 'Tooling shares support/ with the tests and never imports a test (docs/ARCHITECTURE.md).' }],
  ),
  prettier,
);
