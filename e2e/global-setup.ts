import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { ensureConsoleBuilt, ensureWebBuilt, makeServerTemplate } from './harness.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** a stopped server's DATA_DIR, migrated and seeded, that each file's fresh server starts on a copy of */
    serverTemplate: string;
  }
}

/**
 * Before the browser files: the web app is built once (two of them may run at a time), and one server
 * is started and stopped to leave a migrated, seeded database the files' servers copy.
 */
export default async function setup(project: TestProject) {
  await ensureWebBuilt();
  await ensureConsoleBuilt();
  const template = await makeServerTemplate();
  project.provide('serverTemplate', template);
  return async () => {
    await rm(template, { recursive: true, force: true });
  };
}
