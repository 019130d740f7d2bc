// The e2e setup builds the web app with the same staleness rule as `npm start` and `npm run size`.
import { ensureWebBuild as ensure } from '../../../../scripts/web-build.mjs';

/** Runs `vite build` for apps/web unless dist/ is newer than every source it is built from. */
export function ensureWebBuild(root: string): string {
  return ensure(root, { label: 'e2e' });
}
