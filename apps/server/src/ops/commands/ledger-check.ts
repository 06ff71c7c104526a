import { fromMinorUnits } from '@portal/contract/money';
import { ledgerAuditRules as auditRules } from '../../modules/books/service.ts';
import { defineCommand, OpsError } from '../command.ts';

/** Money on a cancelled card reaches no one: it goes on to the wallet, and a hold no one settles expires. */
const CLOSED_CARD_RULE = 'no cancelled card holds money (available, or held past AUTH_HOLD_EXPIRY_DAYS)';

export const ledgerCheck = defineCommand({
  name: 'ledger:check',
  summary: 'Check every invariant of the books, for all merchants; exits 1 on any violation',
  usage: ['ledger:check'],
  description: `The rules: ${[...auditRules, CLOSED_CARD_RULE].join('; ')}.`,
  flags: {},
  examples: ['ledger:check'],
  async run(_flags, { services }) {
    const audited = await services.books.audit();
    const { size } = audited;
    // an hour past its days: the hourly job has had its turn at the hold
    const overdueBefore = new Date(services.clock.now().getTime() - services.config.authHoldExpiryDays * 86_400_000 - 3_600_000);
    const stranded = (await services.cards.closedCardsHoldingMoney(overdueBefore)).map((card) => ({
      rule: CLOSED_CARD_RULE,
      detail: `card ${card.cardId} (merchant ${card.merchantId}) is cancelled and holds ${fromMinorUnits(card.available)} ${card.currency} available, ${fromMinorUnits(card.overdue)} ${card.currency} held past ${services.config.authHoldExpiryDays} days`,
    }));
    const violations = [...audited.violations, ...stranded];
    const looked = `${size.accounts} ledger accounts, ${size.transactions} transactions, ${size.postings} postings, ${size.holds} holds`;
    if (violations.length > 0) {
      const shown = violations.slice(0, 50).map((v) => `  ${v.rule}: ${v.detail}`);
      throw new OpsError(
        [`${violations.length} violation${violations.length === 1 ? '' : 's'} in ${looked}:`, ...shown, ...(violations.length > 50 ? ['  …'] : [])].join('\n'),
      );
    }
    return [`The books are sound: ${looked}.`, ...[...auditRules, CLOSED_CARD_RULE].map((rule) => `  ok  ${rule}`)].join('\n');
  },
});
