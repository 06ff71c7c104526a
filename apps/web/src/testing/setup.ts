// The unit project's set-up for every test file. Most run in Node; a component test asks for a
// browser with `// @vitest-environment jsdom` on its first line, and only then is the DOM set-up
// (testing-library, matchers, the stand-ins jsdom lacks) loaded, so the server's tests pay nothing.
if (typeof document !== 'undefined') await import('./dom.ts');

export {};
