// Tests run TypeScript through swc; end-to-end suites spawn the built server (dist/) instead of importing Nest.
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
};
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleNameMapper: {
    '^@gateway/(domain|event-store|contract|acquirer)$': '<rootDir>/libs/$1/src/index.ts',
  },
  testTimeout: 60000,
};
