/** Query keys of the signed-in account: the header shows it, and the settings change it. */
export const accountKeys = {
  all: ['account'] as const,
  info: () => [...accountKeys.all, 'info'] as const,
};
