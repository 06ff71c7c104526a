import type { Merchant } from '@portal/contract/merchant';
import { createContext, useContext } from 'react';
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

/**
 * The merchant of a page the server draws (src/app/server-shell.tsx). A store read during a server
 * render answers the store's initial state, so the server hands the merchant down this way instead.
 */
export const ServerMerchantContext = createContext<Merchant | null>(null);

/** The merchant, in a component: the server's while it draws the page, else the store's. */
export function useMerchant(): Merchant | null {
  const fromServer = useContext(ServerMerchantContext);
  const fromStore = useMerchantStore((state) => state.merchant);
  return fromServer ?? fromStore;
}
