// The web build prints no warning of its dependencies' making (zod's comments Rollup cannot place), so
// `npm start`'s first screen is not a page of them; warnings about our own code still come through.
import type { Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { onBuildWarning } from '../build-warnings';

const annotation = (id: string): Rollup.RollupLog => ({
  code: 'INVALID_ANNOTATION',
  id,
  message: `${id} (400:0): A comment "/* @__PURE__ */" contains an annotation that Rollup cannot interpret`,
});

function shown(warning: Rollup.RollupLog): Rollup.RollupLog[] {
  const passed: Rollup.RollupLog[] = [];
  onBuildWarning(warning, (w) => passed.push(w));
  return passed;
}

describe('web build warnings', () => {
  it("drops a dependency's misplaced annotation", () => {
    expect(shown(annotation('/app/node_modules/zod/v4/core/util.js'))).toEqual([]);
    expect(shown(annotation('C:\\app\\node_modules\\zod\\v4\\core\\regexes.js'))).toEqual([]);
  });

  it('shows the same warning about our own code, and any other warning', () => {
    const ours = annotation('/app/apps/web/src/main.tsx');
    expect(shown(ours)).toEqual([ours]);
    const circular: Rollup.RollupLog = {
      code: 'CIRCULAR_DEPENDENCY',
      id: '/app/node_modules/some-lib/index.js',
      message: 'Circular dependency',
    };
    expect(shown(circular)).toEqual([circular]);
  });
});
