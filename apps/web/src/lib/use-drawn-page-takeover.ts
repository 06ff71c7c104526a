import { useLayoutEffect } from 'react';
import { takeOverDrawnPage } from './shell.ts';

/**
 * For the app's first screens (the login area, the full-page messages): on a page the server drew,
 * takes it over as soon as the screen is drawn, before the browser paints (see lib/shell.ts).
 */
export function useDrawnPageTakeover() {
  useLayoutEffect(() => {
    takeOverDrawnPage();
  }, []);
}
