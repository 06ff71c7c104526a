import type { ThreeDsOtp } from '@portal/contract/card-spending';
import { create } from 'zustand';

/** At most this many codes are kept at once; a newer one pushes out the oldest. */
export const MAX_THREE_DS_CODES = 5;

export interface ShownThreeDs extends ThreeDsOtp {
  /** one code's identity: the same event reaching this tab twice shows once */
  key: string;
}

interface ThreeDsState {
  /** newest first */
  codes: ShownThreeDs[];
  /** the code whose dialog is open */
  openKey: string | null;
  /** a new code: it shows at once, in its dialog and as a floating notice; one already known changes nothing */
  receive: (otp: ThreeDsOtp) => void;
  open: (key: string) => void;
  close: () => void;
  dismiss: (key: string) => void;
  clear: () => void;
}

export const threeDsKey = (otp: ThreeDsOtp) => [otp.card_id, otp.expires_at, otp.merchant_name, otp.amount].join('|');

/** The 3-D Secure codes of this tab: held in memory only, never stored or logged. */
export const useThreeDsStore = create<ThreeDsState>()((set) => ({
  codes: [],
  openKey: null,
  receive: (otp) => {
    const key = threeDsKey(otp);
    set((state) => {
      // a code already shown (the stream connected again and told it again) is not pushed on the holder twice
      if (state.codes.some((shown) => shown.key === key)) return state;
      return { codes: [{ ...otp, key }, ...state.codes].slice(0, MAX_THREE_DS_CODES), openKey: key };
    });
  },
  open: (key) => set({ openKey: key }),
  close: () => set({ openKey: null }),
  dismiss: (key) => set((state) => ({ codes: state.codes.filter((shown) => shown.key !== key), openKey: state.openKey === key ? null : state.openKey })),
  clear: () => set({ codes: [], openKey: null }),
}));
