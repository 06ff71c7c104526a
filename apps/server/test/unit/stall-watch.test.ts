import { describe, expect, it } from 'vitest';
import { watchStalls } from '../../src/lib/stall-watch.ts';

const busyFor = (ms: number) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // the loop does not turn
  }
};
const turns = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the event loop stall warning', () => {
  it('says how long the loop did not turn', async () => {
    const warnings: Array<{ details: { stalled_ms?: number }; message: string }> = [];
    const stop = watchStalls({ warn: (details, message) => warnings.push({ details, message }) }, { everyMs: 20, warnAfterMs: 200 });
    try {
      busyFor(400);
      await turns(80);
      const longest = Math.max(...warnings.map((warning) => warning.details.stalled_ms ?? 0));
      expect(longest).toBeGreaterThanOrEqual(380);
      for (const warning of warnings) expect(warning.message).toBe(`the event loop stalled for ${warning.details.stalled_ms} ms`);
    } finally {
      stop();
    }
  });
});
