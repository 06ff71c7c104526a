import { ErrorCode } from '@portal/contract/errors';
import type { Merchant } from '@portal/contract/merchant';
import { call } from '../../../lib/api-client.ts';
import * as merchantCalls from '../../../lib/generated/merchant-calls.ts';
import { isApiError } from '../../../lib/http.ts';
import { applyBranding } from '../../../lib/theme.ts';
import { merchantText } from '../../../locales/zh-CN/merchant.ts';
import { useMerchantStore } from '../../../stores/merchant.ts';

/**
 * GET /merchant: the branding of the merchant that owns this host. It is held in the merchant
 * store rather than the query cache: every screen needs it before it can draw, it is fetched once at
 * start-up, and the theme and layouts read it outside any query.
 */
export const getMerchant = () => call(merchantCalls.merchant);

/**
 * The merchant at start-up: a page the server drew carries the answer of GET /merchant in
 * `<script type="application/json" id="portal-merchant">`; any other page asks for it.
 */
export function startMerchant() {
  const inPage = document.getElementById('portal-merchant')?.textContent;
  if (inPage) {
    try {
      showMerchant(JSON.parse(inPage) as Merchant);
      return;
    } catch {
      // not readable: ask the server as usual
    }
  }
  void loadMerchant();
}

/** Fetches the merchant into the store; the app calls it at start-up, and again to retry. */
export async function loadMerchant() {
  const store = useMerchantStore.getState();
  store.startLoading();
  try {
    showMerchant(await getMerchant());
  } catch (error) {
    if (isApiError(error) && error.code === ErrorCode.MERCHANT_UNKNOWN) {
      store.setFailure({ kind: 'unknown-host', message: error.message });
    } else {
      store.setFailure({ kind: 'unavailable', message: isApiError(error) ? error.message : merchantText.unavailableDetail });
    }
  }
}

/** The page takes the merchant's branding and the app has its merchant. */
function showMerchant(merchant: Merchant) {
  applyBranding(merchant);
  useMerchantStore.getState().setMerchant(merchant);
}
