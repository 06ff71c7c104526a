import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { consoleCallsFile, generatedFile } from '../../scripts/generate-calls.ts';

describe('the calls the console reaches', () => {
  it('are those the contract declares, as apps/console/scripts/generate-calls.ts writes them', async () => {
    expect(readFileSync(generatedFile, 'utf8')).toBe(await consoleCallsFile());
  });
});
