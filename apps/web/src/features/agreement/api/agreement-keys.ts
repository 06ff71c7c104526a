/** Query keys of the user agreement. */
export const agreementKeys = {
  all: ['agreements'] as const,
  titles: () => [...agreementKeys.all, 'titles'] as const,
  detail: (id: string) => [...agreementKeys.all, 'detail', id] as const,
};
