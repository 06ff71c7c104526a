import { issuerWebhookSecretFor } from '../../lib/secrets.ts';
import { Refused } from '../../lib/refused.ts';
import { issuerUrlFor } from '../../providers/issuer/built-in.ts';
import { createHttpIssuer } from '../../providers/issuer/http.ts';
import { IssuerUnavailable } from '../../providers/issuer/port.ts';
import { definePlainCommand } from '../command.ts';
import * as input from '../input.ts';

export const issuerFailNext = definePlainCommand({
  name: 'issuer:fail-next',
  summary: 'Make the simulated card issuer fail the next card it is asked to open, with a reason',
  usage: ['issuer:fail-next --reason TEXT'],
  description: [
    'The next issuance the simulated issuer receives, from any account at any merchant, answers card.failed with this reason: the card becomes FAIL, its hold goes back to the wallet, and the customer gets the reason in a station message. Asked twice, the next two fail. Only the simulator takes it (a real issuer answers that it has no such call); it opens no database.',
    '',
    'The issuer asked is ISSUER_URL, or else the built-in simulator the server starts on http://127.0.0.1:ISSUER_SIM_PORT (4100). Requests are signed with ISSUER_WEBHOOK_SECRET, or else the development secret in DATA_DIR, so run it with the server\'s DATA_DIR.',
  ].join('\n'),
  flags: {
    reason: { type: 'string', value: 'TEXT', description: 'why it fails, shown to the customer (e.g. 发卡行风控拒绝，请更换卡种)' },
  },
  examples: ['issuer:fail-next --reason 发卡行风控拒绝，请更换卡种', 'issuer:fail-next --reason "BIN 额度已满"'],
  async run(flags, { config }) {
    const reason = input.text(input.requireFlag(flags.reason, 'reason', 'issuer:fail-next'), 'reason', { max: 200 });
    const url = issuerUrlFor(config);
    const issuer = createHttpIssuer({ url, secret: issuerWebhookSecretFor(config) });
    let pending: number | null;
    try {
      ({ pending_failures: pending } = await issuer.failNext(reason));
    } catch (error) {
      if (!(error instanceof IssuerUnavailable)) throw error;
      throw new Refused(`${whatWentWrong(error.message, url, config.issuer.url !== undefined)} (${error.message})`);
    }
    return [
      `The card issuer at ${url} will fail the next card opening.`,
      `  reason   ${reason}`,
      ...(pending !== null && pending > 1 ? [`  ${pending} openings are now set to fail, this one last.`] : []),
    ].join('\n');
  },
});

/** What the operator should check, from how the request failed. */
function whatWentWrong(message: string, url: string, configured: boolean) {
  if (/answered 401/.test(message)) {
    return `the card issuer at ${url} did not take the request's signature: give this command the server's ISSUER_WEBHOOK_SECRET, or its DATA_DIR`;
  }
  if (/answered 404/.test(message)) return `the card issuer at ${url} has no fail-next call: only the simulated issuer takes it`;
  if (/answered \d+/.test(message)) return `the card issuer at ${url} refused the request`;
  return configured
    ? `the card issuer at ${url} (ISSUER_URL) is not reachable: is it running?`
    : `no simulated card issuer answers at ${url}: start the server (\`npm start\`, it starts the simulator when ISSUER_URL is unset) or \`npm run issuer-sim\`; if it runs on another port, give ISSUER_SIM_PORT or ISSUER_URL`;
}
