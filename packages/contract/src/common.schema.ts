import { z } from 'zod';
import { LANGUAGES } from './constants';

/** Interface languages (`LANGUAGES` in constants.ts); `es` is the default and the fallback. */
export const ZLanguage = z.enum(LANGUAGES);

// --- ids ---

/** The largest id a row can have (a 32-bit integer column, on both engines). */
export const ID_MAX = 2_147_483_647;
/** An id written as text (a path segment, a query string): plain decimal digits, no sign, no leading zero. */
const ID_TEXT = /^[1-9][0-9]{0,9}$/;

/**
 * An id: a strict positive integer. JSON numbers must be whole and at least 1; text (path and query
 * values) must be plain decimal digits. `0`, `-1`, `1.5`, `0x1`, ` 1`, `1e0`, `true`, `[1]` and `null`
 * are all refused with the same message ('validation.id').
 */
export const zId = () =>
  z.preprocess(
    (v) => (typeof v === 'string' && ID_TEXT.test(v) ? Number(v) : v),
    z
      .number({ error: (issue) => (issue.input === undefined ? 'required' : 'validation.id') })
      .int({ message: 'validation.id' })
      .min(1, { message: 'validation.id' })
      .max(ID_MAX, { message: 'validation.id' }),
  );

/** A list of ids (each one as strict as `zId`), between `min` and `max` of them. */
export const zIdList = (options: { min?: number; max: number }) =>
  z
    .array(zId())
    .min(options.min ?? 0)
    .max(options.max);

export const ZId = zId();
export const ZIdParams = z.object({ id: ZId });
export const ZIdsRequest = z.object({ ids: zIdList({ min: 1, max: 10_000 }) });
export type IdsRequest = z.infer<typeof ZIdsRequest>;

// --- text ---

/** Invisible characters that carry nothing in a name or a note: removed wherever they are. */
const INVISIBLE = /[\u200B\u2060\uFEFF\u180E]/g;
/** Whitespace and invisible joiners, soft hyphens and marks trimmed from both ends. */
const EDGES =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: the class lists lone invisible marks on purpose
  /^[\s\u200B-\u200F\u2060-\u2064\uFEFF\u00AD\u180E\u034F\u115F\u1160\u3164]+|[\s\u200B-\u200F\u2060-\u2064\uFEFF\u00AD\u180E\u034F\u115F\u1160\u3164]+$/g;
/**
 * Never accepted in text: control characters (C0, DEL, C1), the bidirectional embedding, override and
 * isolate characters (they make `gnp.exe` display as `exe.png`), line and paragraph separators, and
 * unpaired UTF-16 surrogates (in a `u` regex a surrogate range matches only the unpaired ones).
 */
const FORBIDDEN_SINGLE_LINE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u2028\u2029\uD800-\uDFFF]/u;
/** The same for multi-line text, which may hold line breaks (\n, \r) and tabs. */
const FORBIDDEN_MULTI_LINE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uD800-\uDFFF]/u;

/** Removes invisible characters and trims whitespace and invisible marks from both ends. */
export function cleanText(text: string): string {
  return text.replace(INVISIBLE, '').replace(EDGES, '');
}

/** True when the text holds a character no text field accepts (see FORBIDDEN_*). */
export function hasForbiddenCharacters(text: string, multiline = false): boolean {
  return (multiline ? FORBIDDEN_MULTI_LINE : FORBIDDEN_SINGLE_LINE).test(text);
}

/**
 * A text field with the one set of rules every module uses: invisible characters removed and the ends
 * trimmed (so a zero-width space cannot pass 'required'), then control, bidirectional-override and
 * unpaired-surrogate characters refused ('validation.text_characters'), then the length checked.
 * `multiline` allows line breaks and tabs (notes, rules, descriptions).
 */
export const zText = (options: { min?: number; max: number; multiline?: boolean }) => {
  const base = z
    .string()
    .overwrite(cleanText)
    .refine((v) => !hasForbiddenCharacters(v, options.multiline), {
      message: 'validation.text_characters',
      abort: true,
    });
  return (options.min ? base.min(options.min) : base).max(options.max);
};

/** A required, trimmed text field (the text rules of `zText`, at least one visible character). */
export const requiredText = (max: number, options: { multiline?: boolean } = {}) =>
  zText({ min: 1, max, multiline: options.multiline });

/** An absolute http(s) URL: no `javascript:`, `data:` or other schemes, no user name or password. */
export const zHttpUrl = (max = 2048) =>
  z
    .string()
    .overwrite(cleanText)
    .max(max)
    .refine(
      (v) => {
        if (hasForbiddenCharacters(v) || /\s/.test(v)) return false;
        let url: URL;
        try {
          url = new URL(v);
        } catch {
          return false;
        }
        return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
      },
      { message: 'validation.url' },
    );

/** ISO 8601 timestamp in UTC, as every API response carries it. */
export const ZTimestamp = z.string();

export const ZHexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: 'validation.hex_color' });

export const ZMessageResponse = z.object({ message: z.string() });
export const ZSuccessResponse = z.object({ success: z.boolean(), message: z.string() });

export const ZErrorResponse = z.object({ message: z.string() });
export const ZValidationErrorResponse = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())),
});
/** 409 and similar: a message, and the field it concerns when there is one. */
export const ZConflictResponse = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ValidationErrorResponse = z.infer<typeof ZValidationErrorResponse>;
export type SuccessResponse = z.infer<typeof ZSuccessResponse>;
export type ConflictResponse = z.infer<typeof ZConflictResponse>;
