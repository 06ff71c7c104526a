import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyIssuerSignature } from '../../src/lib/issuer-signature.ts';
import { runOps } from '../../src/ops/cli.ts';
import type { SimulatedEvent } from '../../src/providers/issuer/simulator.ts';
import { type RunningIssuerSimulator, startIssuerSimulator } from '../../src/providers/issuer/simulator-server.ts';
import { productionEnv } from '../helpers/production-env.ts';

const SECRET = 'test-only-issuer-webhook-secret-of-32-chars';

/** the portal's webhook: the signed events the simulator sends */
const events: SimulatedEvent[] = [];
let portal: Server;
/** card ids: each issuance is a new card */
let serial = 0;
let sim: RunningIssuerSimulator;

beforeAll(async () => {
  portal = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const header = req.headers['issuer-signature'];
      const signed = verifyIssuerSignature({ secret: SECRET, body, header: typeof header === 'string' ? header : undefined, now: new Date() });
      if (signed) events.push(JSON.parse(body.toString('utf8')) as SimulatedEvent);
      res.writeHead(signed ? 200 : 401).end('{}');
    });
  });
  await new Promise<void>((resolve) => portal.listen(0, '127.0.0.1', resolve));
  sim = await startIssuerSimulator({
    port: 0,
    webhookUrl: `http://127.0.0.1:${(portal.address() as AddressInfo).port}/api/v1/issuer/webhook`,
    secret: SECRET,
    delayMs: 0,
    failRate: 0,
  });
});
afterAll(async () => {
  await sim?.close();
  await new Promise<void>((resolve) => portal.close(() => resolve()));
});
afterEach(async () => {
  // what a test set to fail and did not use is used up here
  for (let n = 0; n < 5; n++) sim.simulator.openCard({ card_id: `drain_${++serial}`, product: { bin: '42424242', brand: 'VISA', currency: 'USD' }, holder: { real_name: '王五', latin_name: null } });
  await sim.simulator.settled();
  events.length = 0;
});

/** `npm run ops -- …argv` in this process; a command that opened a database would fail the test. */
async function ops(argv: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOps(argv, {
    env,
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    open: async () => {
      throw new Error('issuer:fail-next opened a database');
    },
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

async function nextIssuance() {
  sim.simulator.openCard({ card_id: `card_${++serial}`, product: { bin: '42424242', brand: 'VISA', currency: 'USD' }, holder: { real_name: '王五', latin_name: null } });
  await sim.simulator.settled();
  return events.splice(0).map((event) => [event.type, event.data.reason]);
}

const portOf = (url: string) => new URL(url).port;

describe('ops issuer:fail-next', () => {
  it('asks the issuer at ISSUER_URL to fail the next issuance, prints it, and the next one fails with the reason', async () => {
    const run = await ops(['issuer:fail-next', '--reason', ' 发卡行风控拒绝，请更换卡种 '], { ISSUER_URL: sim.url, ISSUER_WEBHOOK_SECRET: SECRET });
    expect(run, run.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(`The card issuer at ${sim.url} will fail the next card opening.\n  reason   发卡行风控拒绝，请更换卡种`);
    expect(await nextIssuance()).toEqual([['card.failed', '发卡行风控拒绝，请更换卡种']]);
    expect(await nextIssuance()).toEqual([['card.issued', undefined]]);
  });

  it('without ISSUER_URL asks the built-in simulator at 127.0.0.1:ISSUER_SIM_PORT, also in production settings', async () => {
    const run = await ops(['issuer:fail-next', '--reason', '维护中'], { ISSUER_SIM_PORT: portOf(sim.url), ISSUER_WEBHOOK_SECRET: SECRET });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`The card issuer at http://127.0.0.1:${portOf(sim.url)} will fail`);
    const twice = await ops(['issuer:fail-next', '--reason', '再一次'], { ...productionEnv, ISSUER_URL: sim.url, ISSUER_WEBHOOK_SECRET: SECRET });
    expect(twice.code, twice.stderr).toBe(0);
    expect(twice.stdout).toContain('2 openings are now set to fail, this one last.');
    expect([...(await nextIssuance()), ...(await nextIssuance())]).toEqual([
      ['card.failed', '维护中'],
      ['card.failed', '再一次'],
    ]);
  });

  it('exits 1 saying how to start the simulator when nothing answers, and 1 for a refused signature or an issuer without the call', async () => {
    const closed = await startIssuerSimulator({ port: 0, secret: SECRET, delayMs: 0, failRate: 0 });
    await closed.close();
    const unreachable = await ops(['issuer:fail-next', '--reason', '维护中'], { ISSUER_SIM_PORT: portOf(closed.url), ISSUER_WEBHOOK_SECRET: SECRET });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toBe('');
    expect(unreachable.stderr).toContain(`error: no simulated card issuer answers at ${closed.url}: start the server (\`npm start\``);
    expect(unreachable.stderr).toContain('npm run issuer-sim');
    expect(unreachable.stderr).toContain('ECONNREFUSED');

    const configured = await ops(['issuer:fail-next', '--reason', '维护中'], { ISSUER_URL: closed.url, ISSUER_WEBHOOK_SECRET: SECRET });
    expect(configured).toMatchObject({ code: 1, stdout: '' });
    expect(configured.stderr).toContain(`the card issuer at ${closed.url} (ISSUER_URL) is not reachable`);

    const badSecret = await ops(['issuer:fail-next', '--reason', '维护中'], { ISSUER_URL: sim.url, ISSUER_WEBHOOK_SECRET: `${SECRET}-other` });
    expect(badSecret).toMatchObject({ code: 1, stdout: '' });
    expect(badSecret.stderr).toContain("did not take the request's signature");

    const notSimulator = await ops(['issuer:fail-next', '--reason', '维护中'], { ISSUER_URL: `${sim.url}/elsewhere`, ISSUER_WEBHOOK_SECRET: SECRET });
    expect(notSimulator).toMatchObject({ code: 1, stdout: '' });
    expect(notSimulator.stderr).toContain('has no fail-next call: only the simulated issuer takes it');

    expect(await nextIssuance()).toEqual([['card.issued', undefined]]);
  });

  it('needs a reason: none is a wrong command line (2), an empty or overlong one is refused (1)', async () => {
    const env = { ISSUER_URL: sim.url, ISSUER_WEBHOOK_SECRET: SECRET };
    const missing = await ops(['issuer:fail-next'], env);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toContain('issuer:fail-next: --reason is required');
    const empty = await ops(['issuer:fail-next', '--reason', '  '], env);
    expect(empty).toMatchObject({ code: 1, stdout: '' });
    expect(empty.stderr).toContain('--reason must not be empty');
    const long = await ops(['issuer:fail-next', '--reason', '长'.repeat(201)], env);
    expect(long.code).toBe(1);
    expect(long.stderr).toContain('--reason is longer than 200 characters');
    expect(await nextIssuance()).toEqual([['card.issued', undefined]]);
  });

  it('shows its help in the style of the others', async () => {
    const help = await ops(['issuer:fail-next', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run ops -- issuer:fail-next --reason TEXT\n/);
    expect(help.stdout).toContain('--reason TEXT');
    expect(help.stdout).toContain('ISSUER_SIM_PORT');
  });
});
