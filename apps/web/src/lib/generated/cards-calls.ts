// Generated from packages/contract/src/api/cards.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { cardCalls as declared } from '@portal/contract/api/cards';
import type { CallRef } from '../api-client.ts';

export const verification: CallRef<(typeof declared)['verification']> = { name: 'cards.verification', method: 'GET', path: '/card/verification' };
export const saveVerification: CallRef<(typeof declared)['saveVerification']> = { name: 'cards.saveVerification', method: 'PUT', path: '/card/verification' };
export const openedAvailable: CallRef<(typeof declared)['openedAvailable']> = { name: 'cards.openedAvailable', method: 'GET', path: '/card/opened-available' };
export const list: CallRef<(typeof declared)['list']> = { name: 'cards.list', method: 'GET', path: '/card' };
export const summary: CallRef<(typeof declared)['summary']> = { name: 'cards.summary', method: 'GET', path: '/card/summary' };
export const open: CallRef<(typeof declared)['open']> = { name: 'cards.open', method: 'POST', path: '/card' };
export const detail: CallRef<(typeof declared)['detail']> = { name: 'cards.detail', method: 'GET', path: '/card/:id' };
export const rename: CallRef<(typeof declared)['rename']> = { name: 'cards.rename', method: 'PATCH', path: '/card/:id' };
export const changeStatus: CallRef<(typeof declared)['changeStatus']> = { name: 'cards.changeStatus', method: 'PUT', path: '/card/:id/status' };
export const remove: CallRef<(typeof declared)['remove']> = { name: 'cards.remove', method: 'DELETE', path: '/card/:id' };
export const recharge: CallRef<(typeof declared)['recharge']> = { name: 'cards.recharge', method: 'POST', path: '/card/:id/recharge' };
export const withdraw: CallRef<(typeof declared)['withdraw']> = { name: 'cards.withdraw', method: 'POST', path: '/card/:id/withdraw' };
export const reveal: CallRef<(typeof declared)['reveal']> = { name: 'cards.reveal', method: 'POST', path: '/card/:id/reveal' };
