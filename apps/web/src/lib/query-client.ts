import { QueryClient } from '@tanstack/react-query';
import { useSessionStore } from '../stores/session.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // the HTTP module already told the user; a silent retry would tell them again
      retry: false,
      refetchOnWindowFocus: false,
      // back online, every query on screen is read again, fresh or not: what failed meanwhile shows its
      // data again by itself, and what changed while the event stream was down is caught up
      refetchOnReconnect: 'always',
      staleTime: 30_000,
      // offline, a call still goes out and fails with the network message (spec §8), rather than
      // waiting unseen for the network to come back
      networkMode: 'always',
    },
    mutations: { retry: false, networkMode: 'always' },
  },
});

// one account's data must never be shown to the next one (logout, or a session the server ended)
useSessionStore.subscribe((state, previous) => {
  if (previous.token && !state.token) queryClient.removeQueries();
});
