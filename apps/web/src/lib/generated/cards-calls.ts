// Generated from packages/contract/src/api/cards.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { cardCalls as declared } from '@portal/contract/api/cards';
import type { CallRef } from '../api-client.ts';

export const verification: CallRef<(typeof declared)['verification']> = { name: 'card.verification', method: 'GET', path: '/card/verification' };
export const saveVerification: CallRef<(typeof declared)['saveVerification']> = { name: 'card.saveVerification', method: 'PUT', path: '/card/verification' };
export const openedAvailable: CallRef<(typeof declared)['openedAvailable']> = { name: 'card.openedAvailable', method: 'GET', path: '/card/opened-available' };
export const list: CallRef<(typeof declared)['list']> = { name: 'card.list', method: 'GET', path: '/card' };
export const summary: CallRef<(typeof declared)['summary']> = { name: 'card.summary', method: 'GET', path: '/card/summary' };
export const open: CallRef<(typeof declared)['open']> = { name: 'card.open', method: 'POST', path: '/card' };
export const detail: CallRef<(typeof declared)['detail']> = { name: 'card.detail', method: 'GET', path: '/card/:id' };
export const rename: CallRef<(typeof declared)['rename']> = { name: 'card.rename', method: 'PATCH', path: '/card/:id' };
export const changeStatus: CallRef<(typeof declared)['changeStatus']> = { name: 'card.changeStatus', method: 'PUT', path: '/card/:id/status' };
export const remove: CallRef<(typeof declared)['remove']> = { name: 'card.remove', method: 'DELETE', path: '/card/:id' };
export const recharge: CallRef<(typeof declared)['recharge']> = { name: 'card.recharge', method: 'POST', path: '/card/:id/recharge' };
export const withdraw: CallRef<(typeof declared)['withdraw']> = { name: 'card.withdraw', method: 'POST', path: '/card/:id/withdraw' };
export const reveal: CallRef<(typeof declared)['reveal']> = { name: 'card.reveal', method: 'POST', path: '/card/:id/reveal' };
