// Generated from packages/contract/src/api/account.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { accountCalls as declared } from '@portal/contract/api/account';
import type { CallRef } from '../api-client.ts';

export const login: CallRef<(typeof declared)['login']> = { name: 'account.login', method: 'POST', path: '/account/login' };
export const logout: CallRef<(typeof declared)['logout']> = { name: 'account.logout', method: 'DELETE', path: '/account/login' };
export const sendCode: CallRef<(typeof declared)['sendCode']> = { name: 'account.sendCode', method: 'POST', path: '/account/send/code' };
export const sendCodeAuto: CallRef<(typeof declared)['sendCodeAuto']> = { name: 'account.sendCodeAuto', method: 'POST', path: '/account/send/code-auto' };
export const checkLoginCode: CallRef<(typeof declared)['checkLoginCode']> = { name: 'account.checkLoginCode', method: 'POST', path: '/account/login/code/check' };
export const register: CallRef<(typeof declared)['register']> = { name: 'account.register', method: 'POST', path: '/account/register' };
export const bindEmail: CallRef<(typeof declared)['bindEmail']> = { name: 'account.bindEmail', method: 'POST', path: '/account/email/bind' };
export const forgetPasswordCode: CallRef<(typeof declared)['forgetPasswordCode']> = { name: 'account.forgetPasswordCode', method: 'POST', path: '/account/forget-password/code' };
export const forgetPasswordCheck: CallRef<(typeof declared)['forgetPasswordCheck']> = { name: 'account.forgetPasswordCheck', method: 'POST', path: '/account/forget-password/check' };
export const forgetPassword: CallRef<(typeof declared)['forgetPassword']> = { name: 'account.forgetPassword', method: 'PUT', path: '/account/forget-password' };
export const resetLink: CallRef<(typeof declared)['resetLink']> = { name: 'account.resetLink', method: 'POST', path: '/account/forget-password/link' };
export const forgetTradePassword: CallRef<(typeof declared)['forgetTradePassword']> = { name: 'account.forgetTradePassword', method: 'PUT', path: '/account/forget-trx-password' };
export const info: CallRef<(typeof declared)['info']> = { name: 'account.info', method: 'GET', path: '/account/info' };
