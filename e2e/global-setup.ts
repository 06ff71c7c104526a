import { ensureWebBuilt } from './harness.ts';

/** The web app is built once before the browser files start, since two of them run at a time. */
export default async function setup() {
  await ensureWebBuilt();
}
