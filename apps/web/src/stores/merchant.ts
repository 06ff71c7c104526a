import type { Merchant } from '@portal/contract/merchant';
import { create } from 'zustand';

/** Why the merchant could not be loaded: this host has no merchant, or the call failed. */
export type MerchantFailure = { kind: 'unknown-host'; message: string } | { kind: 'unavailable'; message: string };

interface MerchantState {
  merchant: Merchant | null;
  isLoading: boolean;
  failure: MerchantFailure | null;
  startLoading: () => void;
  setMerchant: (merchant: Merchant) => void;
  setFailure: (failure: MerchantFailure) => void;
}

export const useMerchantStore = create<MerchantState>()((set) => ({
  merchant: null,
  isLoading: true,
  failure: null,
  startLoading: () => set({ isLoading: true, failure: null }),
  setMerchant: (merchant) => set({ merchant, isLoading: false, failure: null }),
  setFailure: (failure) => set({ isLoading: false, failure }),
}));
