import type { MessageKind } from '@portal/contract/messages';
import { create } from 'zustand';

/** At most this many floating notices at once (spec §2, §9); a newer one pushes out the oldest. */
export const MAX_NOTICES = 5;

export interface Notice {
  id: string;
  kind: MessageKind;
  type: string;
  title: string;
  /** a plain-text excerpt */
  content: string;
  status: string;
}

interface NoticesState {
  /** newest first */
  notices: Notice[];
  show: (notice: Notice) => void;
  dismiss: (id: string) => void;
  clear: () => void;
}

export const useNoticesStore = create<NoticesState>()((set) => ({
  notices: [],
  show: (notice) =>
    set((state) => ({ notices: [notice, ...state.notices.filter((shown) => shown.id !== notice.id)].slice(0, MAX_NOTICES) })),
  dismiss: (id) => set((state) => ({ notices: state.notices.filter((notice) => notice.id !== id) })),
  clear: () => set({ notices: [] }),
}));
