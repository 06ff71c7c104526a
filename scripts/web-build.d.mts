export function webIsStale(): boolean;
export function buildWebIfStale(options?: { force?: boolean }): void;
