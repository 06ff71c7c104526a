import { walletMoneyCommand } from './wallet-money.ts';

export const walletRecharge = walletMoneyCommand({
  name: 'wallet:recharge',
  kind: 'RECHARGE',
  act: 'recharge',
  verb: 'Recharged',
  direction: 'to',
  summary: "Put money into an account's wallet from the merchant's funding (充值, ADMIN_RECHARGE_IN)",
  description:
    'One double-entry transaction: the wallet gains the amount, the merchant funding account gives it. The customer sees it at once as 充值. With --key, a repeated command moves nothing.',
  example: 'wallet:recharge --host localhost --account 13800138000 --amount 100.00 --currency USD --key topup-2026-03-01-001',
});
