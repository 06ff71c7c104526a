import { queryOptions } from '@tanstack/react-query';
import { callConsole } from './http.ts';

/** The query keys of the console, from one place. */
export const consoleKeys = {
  merchant: ['merchant'] as const,
  me: ['me'] as const,
  overview: ['overview'] as const,
  operators: ['operators'] as const,
};

export const merchantQuery = queryOptions({ queryKey: consoleKeys.merchant, queryFn: () => callConsole('merchant'), staleTime: 5 * 60_000 });
export const meQuery = queryOptions({ queryKey: consoleKeys.me, queryFn: () => callConsole('me') });
export const overviewQuery = queryOptions({ queryKey: consoleKeys.overview, queryFn: () => callConsole('overview'), refetchInterval: 60_000 });
export const operatorsQuery = queryOptions({ queryKey: consoleKeys.operators, queryFn: () => callConsole('operators') });
