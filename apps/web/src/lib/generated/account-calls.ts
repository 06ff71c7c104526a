// Generated from packages/contract/src/api/account.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { login } from './account/login.ts';
export { logout } from './account/logout.ts';
export { sendCode } from './account/send-code.ts';
export { sendCodeAuto } from './account/send-code-auto.ts';
export { checkLoginCode } from './account/check-login-code.ts';
export { register } from './account/register.ts';
export { bindEmail } from './account/bind-email.ts';
export { forgetPasswordCode } from './account/forget-password-code.ts';
export { forgetPasswordCheck } from './account/forget-password-check.ts';
export { forgetPassword } from './account/forget-password.ts';
export { resetLink } from './account/reset-link.ts';
export { forgetTradePassword } from './account/forget-trade-password.ts';
export { info } from './account/info.ts';
