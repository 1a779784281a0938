import { describe, expect, it } from 'vitest';
import { githubMatrix, gitlabMatrix, matrixFileName } from './ci.js';

/** What GitHub takes as an artifact name and any file system as a file name: no `/ : < > | * ? " \`. */
const SAFE = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

describe('matrixFileName', () => {
  it('keeps a name that is already a file name', () => {
    for (const name of ['platform', 'team-payments', 'api_v2', 'web.app', '2024'])
      expect(matrixFileName(name)).toBe(name);
  });

  it('makes any other name one, and two names never the same one', () => {
    const names = [
      'team/api',
      'team:api',
      'team api',
      'team\\api',
      '.hidden',
      '..',
      '/',
      'a"b|c*d?e<f>',
      'café',
      '',
    ];
    const files = names.map(matrixFileName);
    for (const file of files) expect(file).toMatch(SAFE);
    expect(new Set(files).size).toBe(names.length);
    expect(matrixFileName('team/api')).toMatch(/^team-api-[0-9a-f]{8}$/);
    // The same name, the same file: the plan job writes it, the summary's artifact is found by it.
    expect(matrixFileName('team/api')).toBe(matrixFileName('team/api'));
  });

  it('is in both matrices, beside the project and its directory', () => {
    const entries = [{ project: 'team/api', dir: 'teams/api', file: matrixFileName('team/api') }];
    expect(JSON.parse(githubMatrix(entries)).include[0].file).toBe(entries[0]?.file);
    expect(gitlabMatrix(entries)).toContain(`FILE: ${JSON.stringify(entries[0]?.file)}`);
  });
});
