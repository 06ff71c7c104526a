/** Query keys of the settings feature. */
export const settingsKeys = {
  all: ['settings'] as const,
  /** the signed-in account as /settings reads it, with whether it has a trade password */
  account: () => [...settingsKeys.all, 'account'] as const,
};
