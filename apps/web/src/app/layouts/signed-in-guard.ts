import { type LoaderFunctionArgs, replace } from 'react-router';
import { paths } from '../../lib/paths.ts';
import { useSessionStore } from '../../stores/session.ts';

/** The only paths drawn inside the signed-in layout (spec §2); any other one is not found. */
export const signedInPaths: readonly string[] = [
  paths.wallet.path,
  paths.settings.path,
  paths.informationCenter.path,
  paths.informationAnnouncementDetails.path,
  paths.card.path,
  paths.createCard.path,
  paths.cardDetails.path,
  paths.bulkExport.path,
  paths.createCardVerification.path,
  paths.createCardSecondaryVerificationData.path,
];

export const isSignedInPath = (pathname: string) => signedInPaths.includes(pathname.replace(/\/+$/, '') || '/');

/**
 * A signed-in screen reached while logged out goes to /sign-in, replacing the history entry so that
 * back does not return to it (spec §4). Unknown paths are left to the not-found page.
 */
export function signedInGuard({ request }: LoaderFunctionArgs) {
  if (useSessionStore.getState().isLogin) return null;
  if (!isSignedInPath(new URL(request.url).pathname)) return null;
  return replace(paths.signIn.getHref());
}
