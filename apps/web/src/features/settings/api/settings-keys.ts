/** Query keys of the security centre. */
export const settingsKeys = {
  all: ['settings'] as const,
  overview: () => [...settingsKeys.all, 'overview'] as const,
  devices: () => [...settingsKeys.all, 'devices'] as const,
  sessions: () => [...settingsKeys.all, 'sessions'] as const,
  loginHistory: () => [...settingsKeys.all, 'login-history'] as const,
};
