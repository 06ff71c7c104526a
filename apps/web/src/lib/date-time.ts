import { chinaDateTime } from '@portal/contract/date-time';

/**
 * Times are shown as the portal's customers read them, in the contract's one format: China Standard
 * Time, "2026-03-01 08:30", or to the second ("2026-03-01 08:30:05") where a record needs it (wallet
 * transactions).
 */
export const formatDateTime = (iso: string, options: { seconds?: boolean } = {}): string => chinaDateTime(iso, options);
