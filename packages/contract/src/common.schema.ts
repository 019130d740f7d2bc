import { z } from 'zod';

/** Interface languages; `es` is the default and the fallback. */
export const LANGUAGES = ['es', 'en'] as const;
export const ZLanguage = z.enum(LANGUAGES);
export type Language = z.infer<typeof ZLanguage>;
export const DEFAULT_LANGUAGE: Language = 'es';

export const ZId = z.coerce.number().int().positive();
export const ZIdParams = z.object({ id: ZId });
export const ZIdsRequest = z.object({ ids: z.array(z.coerce.number().int().positive()).min(1).max(10_000) });
export type IdsRequest = z.infer<typeof ZIdsRequest>;

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

/** A required, trimmed text field. */
export const requiredText = (max: number) => z.string().trim().min(1).max(max);
