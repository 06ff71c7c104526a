// Generated from packages/contract/src/api/security.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { securityCalls as declared } from '@portal/contract/api/security';
import type { CallRef } from '../api-client.ts';

export const overview: CallRef<(typeof declared)['overview']> = { name: 'security.overview', method: 'GET', path: '/account/security' };
export const changePassword: CallRef<(typeof declared)['changePassword']> = { name: 'security.changePassword', method: 'PUT', path: '/account/password' };
export const setTradePassword: CallRef<(typeof declared)['setTradePassword']> = { name: 'security.setTradePassword', method: 'PUT', path: '/account/trx-password' };
export const changeEmail: CallRef<(typeof declared)['changeEmail']> = { name: 'security.changeEmail', method: 'POST', path: '/account/email/change' };
export const changePhone: CallRef<(typeof declared)['changePhone']> = { name: 'security.changePhone', method: 'POST', path: '/account/phone/change' };
export const devices: CallRef<(typeof declared)['devices']> = { name: 'security.devices', method: 'GET', path: '/account/devices' };
export const revokeDevice: CallRef<(typeof declared)['revokeDevice']> = { name: 'security.revokeDevice', method: 'DELETE', path: '/account/devices/:id' };
export const sessions: CallRef<(typeof declared)['sessions']> = { name: 'security.sessions', method: 'GET', path: '/account/sessions' };
export const endSession: CallRef<(typeof declared)['endSession']> = { name: 'security.endSession', method: 'DELETE', path: '/account/sessions/:id' };
export const endOtherSessions: CallRef<(typeof declared)['endOtherSessions']> = { name: 'security.endOtherSessions', method: 'DELETE', path: '/account/sessions' };
export const loginHistory: CallRef<(typeof declared)['loginHistory']> = { name: 'security.loginHistory', method: 'GET', path: '/account/login-history' };
