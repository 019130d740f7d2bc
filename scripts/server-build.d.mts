import type { BuildOptions } from 'esbuild';

export function serverBuildFile(root: string, entry?: 'main' | 'worker'): string;
export function serverBuildIsStale(root: string): boolean;
export function ensureServerBuild(root: string, options?: { label?: string }): Promise<string>;
export const SERVER_BUNDLE: BuildOptions;
