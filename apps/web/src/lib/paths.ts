/** Every route of the portal (spec §2) with the href builder screens link through. */
const simple = (path: string) => ({ path, getHref: () => path });

export const paths = {
  home: simple('/'),
  // public routes
  signIn: simple('/sign-in'),
  signUp: simple('/sign-up'),
  signEmail: simple('/sign-email'),
  forgetPassword: simple('/forget-password'),
  changePasswordCheck: simple('/change-password-check'),
  resetPassword: simple('/reset-password'),
  agreement: {
    path: '/agreement',
    /** With an id the page can be opened in a new window; without it the id travels in navigation state. */
    getHref: (id?: string) => (id ? `/agreement?id=${encodeURIComponent(id)}` : '/agreement'),
  },
  networkAnomaly: simple('/network-anomaly'),
  // signed-in routes
  wallet: simple('/wallet'),
  settings: simple('/settings'),
  informationCenter: simple('/information-center'),
  informationAnnouncementDetails: simple('/information-announcement-details'),
  card: simple('/card'),
  createCard: simple('/create-card'),
  cardDetails: simple('/card-details'),
  bulkExport: simple('/bulk-export'),
  createCardVerification: simple('/create-card/verification'),
  createCardSecondaryVerificationData: simple('/create-card/secondary-verification-data'),
} as const;
