// Mutation testing of the planner and the deployer: `npm run mutation` (not part of CI or `npm test`).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: ['src/plan/**/*.ts', 'src/apply/**/*.ts', '!src/**/*.test.ts'],
  coverageAnalysis: 'perTest',
  // Messages and hints are asserted where they matter (e2e); a mutant of every word of every
  // message would be most of the run and say nothing of what plan/ and apply/ decide.
  mutator: { excludedMutations: ['StringLiteral'] },
  // Mutants of module-level values run every test; on two shared cores they are most of the time.
  ignoreStatic: true,
  // Mutants that do not compile (strict TypeScript) could never ship: they are not counted.
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  // The machines have two cores, shared.
  concurrency: 1,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  thresholds: { high: 85, low: 70, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
