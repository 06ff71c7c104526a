import { create } from 'zustand';
import { forgetAccountCodeRequests, signedInStorage, tokenStorage } from '../lib/storage.ts';

interface SessionState {
  isLogin: boolean;
  token: string | null;
  /** Keeps a token that is not yet a full sign-in (e.g. before the e-mail is bound). */
  keepToken: (token: string) => void;
  /** A finished sign-in: keeps the token and marks the session signed in. */
  login: (token: string) => void;
  /** Forgets the token everywhere: session storage, local storage and this store. */
  logout: () => void;
}

const initialToken = tokenStorage.get();

export const useSessionStore = create<SessionState>()((set) => ({
  isLogin: Boolean(initialToken) && signedInStorage.get(),
  token: initialToken,
  keepToken(token) {
    tokenStorage.set(token);
    set({ token });
  },
  login(token) {
    tokenStorage.set(token);
    // codes asked for before (a sign-in verification, another account) are not this session's
    forgetAccountCodeRequests();
    signedInStorage.set(true);
    set({ token, isLogin: true });
  },
  logout() {
    tokenStorage.clear();
    // the next account signed in in this tab has codes of its own
    forgetAccountCodeRequests();
    signedInStorage.set(false);
    set({ token: null, isLogin: false });
  },
}));
