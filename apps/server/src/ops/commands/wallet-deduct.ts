import { walletMoneyCommand } from './wallet-money.ts';

export const walletDeduct = walletMoneyCommand({
  name: 'wallet:deduct',
  kind: 'DEDUCT',
  act: 'deduct',
  verb: 'Deducted',
  direction: 'from',
  summary: "Take money out of an account's wallet back to the merchant's funding (系统转出, ADMIN_RECHARGE_OUT)",
  description:
    'Refused, moving nothing, when the wallet has less available than the amount (money held for operations in flight is not available) or when it is frozen.',
  example: 'wallet:deduct --host localhost --account demo@bluewhale.example --amount 20 --currency CNY',
});
