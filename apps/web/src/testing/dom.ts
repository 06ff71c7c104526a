import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { setScreenWidth, stubMatchMedia } from './screen.ts';

// vitest runs without globals, so testing-library cannot register its own clean-up
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  setScreenWidth(1280);
  localStorage.clear();
  sessionStorage.clear();
});

stubMatchMedia();

// findBy… and waitFor wait for what the screen shows up to this long: antd in jsdom on a busy 2-core
// machine can take over a second to draw a screen, and 1 s (testing-library's own) failed there
configure({ asyncUtilTimeout: 5_000 });

// jsdom lays nothing out, so nothing ever resizes; screens only need the observer to exist
window.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
