import { ledgerAuditRules as auditRules } from '../../modules/ledger/audit.ts';
import { defineCommand, OpsError } from '../command.ts';

export const ledgerCheck = defineCommand({
  name: 'ledger:check',
  summary: 'Check every invariant of the books, for all merchants; exits 1 on any violation',
  usage: ['ledger:check'],
  description: `The rules: ${auditRules.join('; ')}.`,
  flags: {},
  examples: ['ledger:check'],
  async run(_flags, { services }) {
    const { violations, size } = await services.ledger.audit();
    const looked = `${size.accounts} ledger accounts, ${size.transactions} transactions, ${size.postings} postings, ${size.holds} holds`;
    if (violations.length > 0) {
      const shown = violations.slice(0, 50).map((v) => `  ${v.rule}: ${v.detail}`);
      throw new OpsError(
        [`${violations.length} violation${violations.length === 1 ? '' : 's'} in ${looked}:`, ...shown, ...(violations.length > 50 ? ['  …'] : [])].join('\n'),
      );
    }
    return [`The books are sound: ${looked}.`, ...auditRules.map((rule) => `  ok  ${rule}`)].join('\n');
  },
});
