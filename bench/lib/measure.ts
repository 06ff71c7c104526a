import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';

/** What the benchmarks measure with: percentiles, CPU of a process, a free port, work spread over clients. */

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
export const ms = (value: number) => Number(value.toFixed(1));
export const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/** CPU seconds a process has used (Linux /proc; 0 for one that has ended or where there is no /proc). */
export function processCpu(pid: number) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** A loopback port free now (a process is told its port before it starts). */
export async function freePort() {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Resolves once something accepts connections on the loopback port; a child that exits first, or 30 s, rejects. */
export async function acceptsOn(port: number, child: ChildProcess, what: string) {
  const deadline = performance.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (performance.now() > deadline) throw new Error(`${what} did not listen on ${port} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs `work` for each item from `clients` loops at once. */
export async function inParallel<T>(items: T[], clients: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(clients, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index] as T, index);
      }
    }),
  );
}
