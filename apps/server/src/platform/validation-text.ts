import type { Language } from '@hablabot/contract';
import type { z } from 'zod';
import { hasText, translate } from './locale';

/*
 * Validation failures as sentences in the caller's language: used by the HTTP error handler for 422
 * answers and by any service that checks data itself (the client import checks each CSV row), so both
 * say the same thing. No HTTP in here.
 */

/** A validation failure as Fastify hands it to the error handler (zod issues become this shape). */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message: string;
  params: Record<string, unknown>;
}

/** The field's label in the language ('whatsapp_cellphone' → 'número de WhatsApp'), else its name. */
export function fieldLabel(lang: Language, field: string): string {
  const leaf =
    field
      .split('.')
      .filter((p) => Number.isNaN(Number(p)))
      .pop() ?? field;
  const key = `fields.${leaf}`;
  return hasText(key) ? translate(lang, key) : leaf;
}

/** Turns one zod issue into a sentence in the caller's language. */
export function describeIssue(lang: Language, field: string, issue: ValidationIssue): string {
  const label = fieldLabel(lang, field);
  if (hasText(issue.message)) {
    // A custom rule may carry the numbers its message needs ({ min: 10 }).
    const extra = (issue.params?.params ?? {}) as Record<string, string | number>;
    return translate(lang, issue.message, { ...extra, field: label });
  }
  const p = issue.params;
  switch (issue.keyword) {
    case 'invalid_type':
      return translate(
        lang,
        issue.message === 'required' ? 'validation.required' : 'validation.invalid_type',
        {
          field: label,
        },
      );
    case 'too_small': {
      const min = Number(p.minimum);
      if (p.origin === 'string')
        return min <= 1
          ? translate(lang, 'validation.required', { field: label })
          : translate(lang, 'validation.min_string', { field: label, min });
      if (p.origin === 'array') return translate(lang, 'validation.min_array', { field: label, min });
      return translate(lang, 'validation.min_number', { field: label, min });
    }
    case 'too_big': {
      const max = Number(p.maximum);
      if (p.origin === 'string') return translate(lang, 'validation.max_string', { field: label, max });
      if (p.origin === 'array') return translate(lang, 'validation.max_array', { field: label, max });
      return translate(lang, 'validation.max_number', { field: label, max });
    }
    case 'invalid_format':
      return translate(lang, p.format === 'email' ? 'validation.email' : 'validation.format', {
        field: label,
      });
    case 'invalid_value':
      return translate(lang, 'validation.in', {
        field: label,
        values: Array.isArray(p.values) ? p.values.join(', ') : '',
      });
    default:
      return translate(lang, 'validation.format', { field: label });
  }
}

/** One zod issue (from `safeParse`) as a sentence: the field is the issue's path ('email', 'rows.0.name'). */
export function describeZodIssue(lang: Language, issue: z.core.$ZodIssue): string {
  const field = issue.path.map(String).join('.');
  const { path: _path, code, message, ...params } = issue;
  return describeIssue(lang, field, {
    keyword: code,
    instancePath: `/${field}`,
    message,
    params: params as Record<string, unknown>,
  });
}
