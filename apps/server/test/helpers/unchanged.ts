import { expect } from 'vitest';

/**
 * Runs `act` and proves that `snapshot` (everything it could change, as one string) reads the same
 * after it: how every test of a refusal shows that a refused request changed nothing.
 */
export async function expectUnchanged<T>(snapshot: () => Promise<string>, act: () => Promise<T>): Promise<T> {
  const before = await snapshot();
  const result = await act();
  expect(await snapshot()).toBe(before);
  return result;
}
