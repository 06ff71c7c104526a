import { QueryClient } from '@tanstack/react-query';
import { ConsoleError } from './http.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // a refusal is an answer: asking again would get the same one
      retry: (count, error) => !(error instanceof ConsoleError && error.code > 0) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});
