import { preloadRouteModules } from './route-table.ts';

// A separate entry that runs before the main one: it starts the first screen's downloads while the
// main entry is still being fetched and evaluated.
preloadRouteModules(window.location.pathname);
