/**
 * Asks `probe` every 100 ms until it answers something (answered), or throws after `timeoutMs`
 * naming `what`: tests wait for what the system shows, never for a fixed time.
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 25_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
