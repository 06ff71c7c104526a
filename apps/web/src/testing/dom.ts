import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
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

// jsdom lays nothing out, so nothing ever resizes; screens only need the observer to exist
window.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
