/** Query keys of the wallet. */
export const walletKeys = {
  all: ['wallet'] as const,
  balances: () => [...walletKeys.all, 'balances'] as const,
  status: () => [...walletKeys.all, 'status'] as const,
};
