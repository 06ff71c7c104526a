/**
 * Says in the log when this process's event loop did not turn for a while: with the embedded database
 * every query runs on that loop, so a long stall means every request of the moment waited for it.
 * The warning names how long, so a slow answer seen elsewhere can be matched with its cause.
 */
export function watchStalls(log: { warn: (details: object, message: string) => void }, { everyMs = 250, warnAfterMs = 1_000 } = {}) {
  let expected = Date.now() + everyMs;
  const timer = setInterval(() => {
    const late = Date.now() - expected;
    expected = Date.now() + everyMs;
    if (late >= warnAfterMs) log.warn({ stalled_ms: late }, `the event loop stalled for ${late} ms`);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
