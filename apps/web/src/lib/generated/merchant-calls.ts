// Generated from packages/contract/src/api/merchant.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { merchantCalls as declared } from '@portal/contract/api/merchant';
import type { CallRef } from '../api-client.ts';

export const merchant: CallRef<(typeof declared)['merchant']> = { name: 'merchant.merchant', method: 'GET', path: '/merchant' };
export const agreementTitles: CallRef<(typeof declared)['agreementTitles']> = { name: 'merchant.agreementTitles', method: 'GET', path: '/merchant/user-agreement/title' };
export const agreement: CallRef<(typeof declared)['agreement']> = { name: 'merchant.agreement', method: 'GET', path: '/merchant/user-agreement/:id' };
