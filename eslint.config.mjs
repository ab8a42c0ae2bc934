// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'bench/results/', 'test/fixtures/', 'data/', '**/public/'] },
  {
    files: ['{src,test,bench,tools,scripts}/**/*.ts'],
    extends: [eslint.configs.recommended, tseslint.configs.strictTypeChecked, tseslint.configs.stylisticTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Counts, ports and durations go into messages as numbers all over; other types still need String().
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `(x) => void call(x)`-style shorthands for callbacks read better than a block around one call.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // Both are used on purpose: interfaces for ports and objects with behaviour, type aliases for data and unions.
      '@typescript-eslint/consistent-type-definitions': 'off',
      // Nest modules are decorated classes, some with only a static forRoot.
      '@typescript-eslint/no-extraneous-class': ['error', { allowWithDecorator: true }],
      // A leading underscore marks what a destructuring leaves out or a signature must take.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true, caughtErrors: 'none' },
      ],
      // An empty environment variable counts as unset, so `||` on strings is meant.
      '@typescript-eslint/prefer-nullish-coalescing': ['error', { ignorePrimitives: { string: true } }],
      // The input checks refuse control characters, so their patterns must name them.
      'no-control-regex': 'off',
      // Dropping one key of a record (a setting cleared, a field left out of a copy) is what these deletes mean.
      '@typescript-eslint/no-dynamic-delete': 'off',
      // Port methods stay async without an await so that a throw reaches the caller as a rejection.
      '@typescript-eslint/require-await': 'off',
      // Without noUncheckedIndexedAccess an indexed read looks always present, and rows, JSON and environment
      // values are checked beyond their static types; removing those checks is a change of its own.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // It turns `x as T` into `x!`, which no-non-null-assertion (kept) then refuses.
      '@typescript-eslint/non-nullable-type-assertion-style': 'off',
      // `!row || row.a !== b` states the rule as written; the `?.` rewrite differs where null and undefined differ.
      '@typescript-eslint/prefer-optional-chain': 'off',
      // Nest declares its application options as classes; the object literal is Nest's own way to pass them.
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
      // A rejection passed on as it arrived (`unknown`) is still the caller's error, not a new one.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    files: ['src/interface/**/*.ts'],
    rules: {
      // Request DTOs are class-transformer instances; copying their fields into plain data is the point of the spread.
      '@typescript-eslint/no-misused-spread': [
        'error',
        { allow: [{ from: 'file', name: ['TopupDto', 'BillInfoDto', 'PayBillDto'] }] },
      ],
    },
  },
  {
    // Wire shapes (snake_case resources) live in src/interface only: the application and the domain declare
    // camelCase shapes (decision 0152, architecture.md "wire shapes").
    files: ['src/application/**/*.ts', 'src/domain/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      '@typescript-eslint/naming-convention': [
        'error',
        { selector: 'typeProperty', format: ['camelCase', 'UPPER_CASE'], leadingUnderscore: 'allow' },
        // Keys that are values, not field names: job kinds such as 'submit-order'.
        { selector: 'typeProperty', modifiers: ['requiresQuotes'], format: null },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      // Response bodies arrive as JSON (`any`); the expectations check their shape, typing each would add nothing.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/restrict-plus-operands': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      // A value a test is sure of is asserted with `!`: if it is wrong, the test fails, which is what it is for.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  prettier,
);
