import { describe, expect, it } from 'vitest';
import { badTextField, jsonDeeperThan, MAX_JSON_DEPTH, messages } from './validation.ts';

describe('jsonDeeperThan', () => {
  const nested = (depth: number) => `${'[{"a":'.repeat(depth / 2)}1${'}]'.repeat(depth / 2)}`;

  it('counts arrays and objects, and refuses past the limit only', () => {
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH + 2))).toBe(true);
    expect(jsonDeeperThan('[[[]]]', 2)).toBe(true);
    expect(jsonDeeperThan('[[],[],[]]', 2)).toBe(false);
  });

  it('does not count brackets inside a text, escaped quotes included', () => {
    expect(jsonDeeperThan(JSON.stringify({ a: '['.repeat(100) }))).toBe(false);
    expect(jsonDeeperThan(JSON.stringify({ a: `\\"${'{'.repeat(100)}` }))).toBe(false);
  });
});

describe('badTextField', () => {
  it('names the first field whose text or key holds a control character or half a surrogate pair', () => {
    expect(badTextField({ a: 'ok', b: { c: ['x', 'y\u0000'] } })).toEqual({ field: 'b.c.1', message: messages.controlCharacter });
    expect(badTextField({ a: 'k\ud800' })).toEqual({ field: 'a', message: messages.invalidCharacter });
    expect(badTextField({ '\udc00': 1 })).toEqual({ field: '\udc00', message: messages.invalidCharacter });
    expect(badTextField({ first: '\u0001', second: '\ud800' })?.field).toBe('first');
    expect(badTextField('\u007f')).toEqual({ field: '', message: messages.controlCharacter });
  });

  it('lets whole pairs, tabs and line breaks through', () => {
    expect(badTextField({ a: '😀', b: 'line\nbreak\tand tab\r\n', c: [1, null, true] })).toBeNull();
  });

  it('walks any nesting without running out of stack', () => {
    let deep: unknown = 'x\u0000';
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(badTextField(deep)?.message).toBe(messages.controlCharacter);
  });
});
