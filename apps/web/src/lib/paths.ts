import type { MessageKind } from '@portal/contract/messages';

/**
 * Every address of the portal (spec §2) and the href builder screens link through. What is drawn at
 * each address (its module, its layout, its menu entry) is declared once, in src/app/route-table.ts,
 * keyed by the names below; this file stays in `lib` because features link to these addresses and
 * may not import the app shell.
 */
const simple = (path: string) => ({ path, getHref: () => path });

/** `path?name=value`, or the bare path without a value. */
const withQuery = (path: string, name: string, value: string | undefined) =>
  value ? `${path}?${name}=${encodeURIComponent(value)}` : path;

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
    getHref: (id?: string) => withQuery('/agreement', 'id', id),
  },
  networkAnomaly: simple('/network-anomaly'),
  // signed-in routes
  wallet: simple('/wallet'),
  settings: {
    path: '/settings',
    /** With a section's id the page opens at that section (the money dialogs link to 交易密码). */
    getHref: (section?: 'trade-password') => (section ? `/settings#${section}` : '/settings'),
  },
  informationCenter: {
    path: '/information-center',
    /** The station messages are the first tab: only the announcements' tab is named in the address. */
    getHref: (tab?: MessageKind) => withQuery('/information-center', 'tab', tab === 'announcement' ? tab : undefined),
  },
  informationAnnouncementDetails: simple('/information-announcement-details'),
  card: simple('/card'),
  createCard: simple('/create-card'),
  cardDetails: {
    path: '/card-details',
    /** A card's page is addressed by its id, so it can be reloaded and shared. */
    getHref: (id: string) => withQuery('/card-details', 'id', id),
  },
  bulkExport: simple('/bulk-export'),
  /** 消费分析: spending across every card; its filters live in the address */
  spendingAnalysis: simple('/card/analysis'),
  createCardVerification: {
    path: '/create-card/verification',
    /** `from`: the portal path the flow goes on to once the data is given (else /create-card). */
    getHref: (from?: string) => withQuery('/create-card/verification', 'from', from),
  },
  createCardSecondaryVerificationData: {
    path: '/create-card/secondary-verification-data',
    /** `from`: as for the verification. */
    getHref: (from?: string) => withQuery('/create-card/secondary-verification-data', 'from', from),
  },
} as const;

/** The name of an address in `paths`. */
export type PathName = keyof typeof paths;
