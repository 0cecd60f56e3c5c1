// Tests run TypeScript through ts-jest, transpile-only (type checking is `npm run typecheck` and
// the build); end-to-end suites spawn the built server (dist/) instead of importing Nest.
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.spec.json', diagnostics: false }] },
  moduleNameMapper: {
    '^@gateway/(domain|event-store|contract|acquirer|order-events|projections|database-files|order-view|config|logging|merchants|webhooks|accounting|ledger)$': '<rootDir>/libs/$1/src/index.ts',
  },
  testTimeout: 60000,
};
