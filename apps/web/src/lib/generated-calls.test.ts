import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { callFiles, generatedFolder } from '../../scripts/generate-calls.ts';

describe('the calls the web reaches', () => {
  it('are those the contract declares, as apps/web/scripts/generate-calls.ts writes them', async () => {
    const expected = await callFiles();
    const written = readdirSync(generatedFolder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(generatedFolder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
    expect(written.sort()).toEqual([...expected.keys()].sort());
    for (const [name, text] of expected) expect(readFileSync(path.join(generatedFolder, name), 'utf8'), name).toBe(text);
  });
});
