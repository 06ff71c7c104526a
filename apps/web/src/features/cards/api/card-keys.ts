/** Query keys of the cards feature. */
export const cardKeys = {
  all: ['cards'] as const,
  verification: () => [...cardKeys.all, 'verification'] as const,
};
