/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // jose is ESM-only: let ts-jest turn it into CommonJS like our own sources.
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
    '^.+/node_modules/jose/.+\\.js$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
    // The local page's browser modules (plain ES modules, served as-is) under test in node.
    '^.+/src/local/web/.+\\.js$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  maxWorkers: 2,
  testTimeout: 30000,
};
