/**
 * The languages and widths a flow's browser test runs at. A flow (create a bot, add an agent, schedule a
 * message…) runs twice by default: in Spanish at 1280 px (two panes, the product's own language) and in
 * English at 375 px (the phone layout) — each language once and each layout once. The per-screen specs
 * (a11y, layout, phone tables, screenshots, language) check every screen in all four combinations, so
 * Spanish on a phone and English on a desktop are still seen on every screen.
 *
 * E2E_FULL_MATRIX=1 runs every flow in all four combinations (before a release, or after a change to
 * the layouts or the texts); CI runs the pairs, which keeps the browser step within its time.
 */
const FULL_MATRIX = process.env.E2E_FULL_MATRIX === '1';

/** Whether a flow runs in `language` at `width` px. */
export function runsFlow(language: string, width: number): boolean {
  return FULL_MATRIX || (language === 'es') === width >= 768;
}

/** The cases (each a language and a width, in either order) that a flow runs at. */
export function flowCases<T extends readonly (string | number)[]>(cases: readonly T[]): T[] {
  return cases.filter((c) =>
    runsFlow(String(c.find((v) => typeof v === 'string')), Number(c.find((v) => typeof v === 'number'))),
  );
}
