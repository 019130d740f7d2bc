import type { MessageTemplate } from '@hablabot/contract';

/** A numbered placeholder of a template's text: {{1}}, {{ 2 }}. */
const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g;

/** The BODY text of a template, if it has one. */
export function bodyText(template: Pick<MessageTemplate, 'components'>): string | null {
  return template.components.find((c) => c.type === 'BODY')?.text ?? null;
}

/** The placeholder numbers of a text, each once, in increasing order ('{{2}} {{1}} {{2}}' → [1, 2]). */
export function placeholdersOf(text: string | null): number[] {
  if (!text) return [];
  const numbers = new Set<number>();
  for (const match of text.matchAll(PLACEHOLDER)) numbers.add(Number(match[1]));
  return [...numbers].sort((a, b) => a - b);
}

/**
 * WhatsApp refuses a parameter holding a line break or a tab, or more than four spaces in a row
 * (error 132018).
 */
const UNSENDABLE = /[\n\r\t]| {5,}/;

export type ParameterProblem = 'missing' | 'empty' | 'extra' | 'format';

/**
 * What is wrong with the values given for a template's body placeholders, by placeholder number: every
 * placeholder needs a non-blank value, and no value may be given for a placeholder the body lacks.
 */
export function parameterProblems(
  placeholders: number[],
  given: Record<string, string>,
): { n: string; problem: ParameterProblem }[] {
  const problems: { n: string; problem: ParameterProblem }[] = [];
  for (const n of placeholders) {
    const value = given[String(n)];
    if (value === undefined) problems.push({ n: String(n), problem: 'missing' });
    else if (value.trim() === '') problems.push({ n: String(n), problem: 'empty' });
    else if (UNSENDABLE.test(value)) problems.push({ n: String(n), problem: 'format' });
  }
  const expected = new Set(placeholders.map(String));
  for (const key of Object.keys(given).sort((a, b) => Number(a) - Number(b))) {
    if (!expected.has(key)) problems.push({ n: key, problem: 'extra' });
  }
  return problems;
}

/** The body text with each placeholder replaced by its value: what the customer reads. */
export function fillPlaceholders(text: string, values: Record<string, string>): string {
  return text.replace(PLACEHOLDER, (whole, n: string) => values[String(Number(n))] ?? whole);
}

/**
 * The button components a send of the template carries for its quick replies, as WhatsApp takes them:
 * one per QUICK_REPLY button, `index` its place among the template's buttons, its payload the button's
 * text (what WhatsApp hands back in the customer's answer). None for a template without quick replies.
 */
export function quickReplyComponents(template: Pick<MessageTemplate, 'components'>): unknown[] {
  const buttons = template.components.find((c) => c.type === 'BUTTONS')?.buttons ?? [];
  return buttons.flatMap((button, index) =>
    button.type.toUpperCase() === 'QUICK_REPLY'
      ? [
          {
            type: 'button',
            sub_type: 'quick_reply',
            index: String(index),
            parameters: [{ type: 'payload', payload: button.text ?? String(index) }],
          },
        ]
      : [],
  );
}
