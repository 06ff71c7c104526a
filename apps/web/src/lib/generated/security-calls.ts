// Generated from packages/contract/src/api/security.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { overview } from './security/overview.ts';
export { changePassword } from './security/change-password.ts';
export { setTradePassword } from './security/set-trade-password.ts';
export { changeEmail } from './security/change-email.ts';
export { changePhone } from './security/change-phone.ts';
export { devices } from './security/devices.ts';
export { revokeDevice } from './security/revoke-device.ts';
export { sessions } from './security/sessions.ts';
export { endSession } from './security/end-session.ts';
export { endOtherSessions } from './security/end-other-sessions.ts';
export { loginHistory } from './security/login-history.ts';
