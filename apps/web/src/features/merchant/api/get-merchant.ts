import { ErrorCode } from '@portal/contract/errors';
import type { Merchant } from '@portal/contract/merchant';
import { http, isApiError } from '../../../lib/http.ts';
import { applyBranding } from '../../../lib/theme.ts';
import { merchantText } from '../../../locales/zh-CN/merchant.ts';
import { useMerchantStore } from '../../../stores/merchant.ts';

/**
 * GET /api/v1/merchant: the branding of the merchant that owns this host. It is held in the merchant
 * store rather than the query cache: every screen needs it before it can draw, it is fetched once at
 * start-up, and the theme and layouts read it outside any query.
 */
export const getMerchant = () => http.get<Merchant>('/api/v1/merchant');

/** Fetches the merchant into the store; the app calls it once at start-up, and again to retry. */
export async function loadMerchant() {
  const store = useMerchantStore.getState();
  store.startLoading();
  try {
    const merchant = await getMerchant();
    applyBranding(merchant);
    store.setMerchant(merchant);
  } catch (error) {
    if (isApiError(error) && error.code === ErrorCode.MERCHANT_UNKNOWN) {
      store.setFailure({ kind: 'unknown-host', message: error.message });
    } else {
      store.setFailure({ kind: 'unavailable', message: isApiError(error) ? error.message : merchantText.unavailableDetail });
    }
  }
}
