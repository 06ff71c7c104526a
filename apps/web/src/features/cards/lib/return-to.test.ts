import { describe, expect, it } from 'vitest';
import { returnTarget } from './return-to.ts';

describe('returnTarget', () => {
  it('goes on to a path of the portal, with its query', () => {
    expect(returnTarget('/create-card?product=p-1')).toBe('/create-card?product=p-1');
    expect(returnTarget('/card')).toBe('/card');
  });

  it('goes on to the card opening without a from', () => {
    expect(returnTarget(null)).toBe('/create-card');
    expect(returnTarget('')).toBe('/create-card');
  });

  it('ignores anything that could leave the portal', () => {
    for (const hostile of [
      '//evil.example',
      '//evil.example/create-card',
      'https://evil.example',
      'http:/evil.example',
      'javascript:alert(1)',
      '/\\evil.example',
      '/\t/evil.example',
      'create-card',
    ]) {
      expect(returnTarget(hostile), hostile).toBe('/create-card');
    }
  });
});
