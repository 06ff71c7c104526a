import { create } from 'zustand';

/**
 * Whether the wallet is frozen (spec §3 isWalletFreeze, §4): any status but BALANCE_STATUS_AVAILABLE.
 * Checked when the signed-in layout opens and again whenever a FREEZE event arrives.
 */
interface WalletStatusState {
  isWalletFreeze: boolean;
  /** why the merchant froze it; empty when not frozen or no reason was given */
  reason: string;
  setStatus: (status: { isWalletFreeze: boolean; reason: string }) => void;
  reset: () => void;
}

export const useWalletStatusStore = create<WalletStatusState>()((set) => ({
  isWalletFreeze: false,
  reason: '',
  setStatus: (status) => set(status),
  reset: () => set({ isWalletFreeze: false, reason: '' }),
}));
