import type { Rollup } from 'vite';

/**
 * Rollup's warnings about our dependencies' code are not ours to act on: a comment Rollup cannot place
 * (INVALID_ANNOTATION, zod's `@__PURE__` notes) is dropped and changes nothing in the bundle. Left in, they
 * fill `npm start`'s first screen above the first-start box. Warnings about our own code still show.
 */
export function onBuildWarning(warning: Rollup.RollupLog, warn: (warning: Rollup.RollupLog) => void): void {
  const inDependency = /[\\/]node_modules[\\/]/.test(warning.id ?? '');
  if (inDependency && warning.code === 'INVALID_ANNOTATION') return;
  warn(warning);
}
