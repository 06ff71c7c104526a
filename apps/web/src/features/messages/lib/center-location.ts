import type { MessageKind } from '@portal/contract/messages';
import { paths } from '../../../lib/paths.ts';

/** Navigation state that asks the message center to open one message. */
export interface OpenMessageState {
  open: { id: string; kind: MessageKind };
}

export const isOpenMessageState = (state: unknown): state is OpenMessageState => {
  const open = (state as OpenMessageState | null)?.open;
  return typeof open?.id === 'string' && (open.kind === 'message' || open.kind === 'announcement');
};

/** The pages that list and show messages: no floating notice there. */
export const isMessagePage = (pathname: string) =>
  pathname === paths.informationCenter.path || pathname === paths.informationAnnouncementDetails.path;
