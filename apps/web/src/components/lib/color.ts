import { SEGMENT_CHIP_FALLBACK_COLOR } from '@hablabot/contract';

export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
/** A chip without a valid colour is grey (the contract's fallback). */
export const CHIP_FALLBACK_COLOR = SEGMENT_CHIP_FALLBACK_COLOR;
export const PICKER_FALLBACK_COLOR = '#000000';

export function isHexColor(value: unknown): value is string {
  return typeof value === 'string' && HEX_COLOR.test(value);
}

function channel(hex: string, start: number): number {
  const c = Number.parseInt(hex.slice(start, start + 2), 16) / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of a #RRGGBB colour. */
export function relativeLuminance(hex: string): number {
  return 0.2126 * channel(hex, 1) + 0.7152 * channel(hex, 3) + 0.0722 * channel(hex, 5);
}

export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * The text colour (near-black or white) that reads best on the given background. Mid-tones such as the
 * presets #128c7e and #d6336c reach 4.5:1 with neither; pure black is the last resort there.
 */
export function readableTextColor(background: string): string {
  const dark = '#1a1a1a';
  const light = '#ffffff';
  const darkRatio = contrastRatio(background, dark);
  const lightRatio = contrastRatio(background, light);
  const best = darkRatio >= lightRatio ? dark : light;
  if (Math.max(darkRatio, lightRatio) >= 4.5) return best;
  return contrastRatio(background, '#000000') > Math.max(darkRatio, lightRatio) ? '#000000' : best;
}
