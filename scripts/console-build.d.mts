export function consoleIsStale(): boolean;
export function buildConsoleIfStale(options?: { force?: boolean }): void;
