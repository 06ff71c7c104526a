import type { RevealAnswer, RevealBody } from '@portal/contract/cards';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';

/**
 * What the reveal call is sent: the access code, or nothing within five minutes of a checked one.
 * `send_type` says where the code went (the phone when left out); the server's card module reads it,
 * the contract's revealBody does not name it yet.
 */

/**
 * POST /api/v1/card/{id}/reveal: the full number, CVV and expiry. The answer is never cached: it
 * lives in the dialog that shows it, for REVEAL_SHOW_SECONDS.
 */
export const revealCard = (id: string, body: RevealBody) => http.post<RevealAnswer>(`/api/v1/card/${encodeURIComponent(id)}/reveal`, body);

export const useRevealCard = (id: string) => useMutation({ mutationFn: (body: RevealBody) => revealCard(id, body), gcTime: 0 });
