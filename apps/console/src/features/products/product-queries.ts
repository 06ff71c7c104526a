import { queryOptions } from '@tanstack/react-query';
import { callConsole } from '../../lib/http.ts';

export const productKeys = { all: ['products'] as const };
export const productsQuery = queryOptions({ queryKey: productKeys.all, queryFn: () => callConsole('products') });
