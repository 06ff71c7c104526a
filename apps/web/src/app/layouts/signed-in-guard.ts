import { type LoaderFunctionArgs, replace } from 'react-router';
import { paths } from '../../lib/paths.ts';
import { useSessionStore } from '../../stores/session.ts';
import { screenAt } from '../route-table.ts';

/** Whether a signed-in screen is drawn at `pathname` (spec §2): the table's allow-list; any other path is not found. */
export const isSignedInPath = (pathname: string) => screenAt(pathname)?.area === 'signed-in';

/**
 * A signed-in screen reached while logged out goes to /sign-in, replacing the history entry so that
 * back does not return to it (spec §4). Unknown paths are left to the not-found page.
 */
export function signedInGuard({ request }: LoaderFunctionArgs) {
  if (useSessionStore.getState().isLogin) return null;
  if (!isSignedInPath(new URL(request.url).pathname)) return null;
  return replace(paths.signIn.getHref());
}
