export function webBuildIsStale(root: string, marker?: string): boolean;
export function ensureWebBuild(root: string, options?: { marker?: string; label?: string }): string;
