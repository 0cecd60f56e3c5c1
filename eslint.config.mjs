import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

/**
 * Layers (README, Architecture): apps use libs, libs never use apps, apps never use each other,
 * and libs/domain uses nothing but itself. An alias cannot name an app, so what crosses a layer
 * is a relative path: each folder gets the patterns of the paths it must not take.
 */
const foldersOf = (dir) =>
  readdirSync(new URL(`./${dir}`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const APPS = foldersOf('apps');
const LIBS = foldersOf('libs');
// An app named as a lib is (apps/ledger, the CLI over libs/ledger): @gateway/<name> is the lib.
const APP_ALIASES = APPS.filter((app) => !LIBS.includes(app));

const A_LIB = 'belongs in a lib (libs/<name>, alias @gateway/<name>)';
const intoApps = {
  regex: `(^|/)apps(/|$)|^@gateway/(${APP_ALIASES.join('|')})(/|$)`,
  message: `Libs never import apps: what a lib needs from an app ${A_LIB}.`,
};
const intoOtherApps = (app) => ({
  // From inside apps/<app>, a path up to apps/ and down into a sibling names the sibling first.
  regex: `(^|/)apps(/|$)|^(\\.\\./)+(${APPS.filter((other) => other !== app).join('|')})(/|$)`,
  message: `Apps never import each other: what two apps share ${A_LIB}.`,
});
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', '.tmp/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-restricted-imports': 'off',
    },
  },
  ...APPS.map((app) => ({ files: [`apps/${app}/**/*.ts`], rules: restrict(intoOtherApps(app)) })),
  // Sources, tests and benches of every lib.
  { files: ['libs/**/*.ts'], rules: restrict(intoApps) },
  {
    // The domain must stay free of frameworks and IO (ports and adapters): its own files only.
    files: ['libs/domain/src/**/*.ts'],
    rules: restrict(intoApps, {
      regex: '^(?!\\.)|^(\\.\\./){2}',
      message: 'libs/domain imports only its own files: no framework, adapter, node:* or other lib.',
    }),
  },
  {
    // The same, one folder deeper: the decider's branches, one file per operation.
    files: ['libs/domain/src/order/operations/*.ts'],
    rules: restrict(intoApps, {
      regex: '^(?!\\.)|^(\\.\\./){3}',
      message: 'libs/domain imports only its own files: no framework, adapter, node:* or other lib.',
    }),
  },
  {
    // The posting rules are pure like the domain: its types and their own files only.
    files: ['libs/accounting/src/**/*.ts'],
    rules: restrict(intoApps, {
      regex: '^(?!\\.|@gateway/domain$)|^(\\.\\./){2}',
      message: 'libs/accounting imports only @gateway/domain and its own files: no framework or IO.',
    }),
  },
  {
    files: ['**/test/**/*.ts', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
