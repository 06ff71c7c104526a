import { ROLE_LABELS, type Role } from '@portal/contract/team';
import { teamText } from '../../../locales/zh-CN/team.ts';

/** A phone as the team shows it: 138****8000 (the first three and the last four digits). */
export function maskPhone(phone: string) {
  return phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : phone;
}

/** The signed-in member as the header names them: 138****8000 · 所有者. */
export const memberLabel = (phone: string, role: Role) => teamText.header.member(maskPhone(phone), ROLE_LABELS[role]);
