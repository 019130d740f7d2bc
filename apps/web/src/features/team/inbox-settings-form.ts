import {
  CONSENT_KEYWORD_LENGTH_MAX,
  CONSENT_KEYWORDS_MAX,
  HANDOFF_PHRASE_LENGTH_MAX,
  HANDOFF_PHRASES_MAX,
  type InboxSettings,
  ZInboxSettings,
} from '@hablabot/contract';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import type { FormIssue } from '../../components';

/** The inbox settings as the form holds them: each word list is a text of one entry per line. */
export interface InboxSettingsFormValues {
  agents_see_all: boolean;
  auto_assign: boolean;
  agent_capacity: number;
  opt_out_keywords: string;
  opt_in_keywords: string;
  opt_out_reply: string;
  handoff_phrases: string;
  handoff_message: string;
}

export const LIST_FIELDS = ['opt_out_keywords', 'opt_in_keywords', 'handoff_phrases'] as const;
type ListField = (typeof LIST_FIELDS)[number];

/** The most entries and the longest entry of each list. */
export const LIST_LIMITS: Record<ListField, { max: number; length: number }> = {
  opt_out_keywords: { max: CONSENT_KEYWORDS_MAX, length: CONSENT_KEYWORD_LENGTH_MAX },
  opt_in_keywords: { max: CONSENT_KEYWORDS_MAX, length: CONSENT_KEYWORD_LENGTH_MAX },
  handoff_phrases: { max: HANDOFF_PHRASES_MAX, length: HANDOFF_PHRASE_LENGTH_MAX },
};

/** One entry per line; blank lines are not entries. */
export const linesToList = (value: unknown): unknown =>
  typeof value === 'string'
    ? value
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '')
    : value;

/** The contract's schema, read from the form's texts: the lists split by line, an empty reply is none. */
export const ZInboxSettingsForm = ZInboxSettings.extend({
  opt_out_keywords: z.preprocess(linesToList, ZInboxSettings.shape.opt_out_keywords),
  opt_in_keywords: z.preprocess(linesToList, ZInboxSettings.shape.opt_in_keywords),
  handoff_phrases: z.preprocess(linesToList, ZInboxSettings.shape.handoff_phrases),
  opt_out_reply: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    ZInboxSettings.shape.opt_out_reply,
  ),
});

export function toFormValues(settings: InboxSettings): InboxSettingsFormValues {
  return {
    agents_see_all: settings.agents_see_all,
    auto_assign: settings.auto_assign,
    agent_capacity: settings.agent_capacity,
    opt_out_keywords: settings.opt_out_keywords.join('\n'),
    opt_in_keywords: settings.opt_in_keywords.join('\n'),
    opt_out_reply: settings.opt_out_reply ?? '',
    handoff_phrases: settings.handoff_phrases.join('\n'),
    handoff_message: settings.handoff_message,
  };
}

/** The form's own texts for the list rules (they carry the list's numbers). */
export function listIssueText(issue: FormIssue, t: TFunction): string | undefined {
  if (!(LIST_FIELDS as readonly string[]).includes(issue.field)) return undefined;
  const code = issue.message?.startsWith('team.list_') ? issue.message.slice('team.'.length) : null;
  if (!code) return undefined;
  const limits = LIST_LIMITS[issue.field as ListField];
  const field = t(`team.inbox.fields.${issue.field}`);
  return t(`team.inbox.issues.${code}`, {
    field,
    max: code === 'list_too_long' ? limits.max : limits.length,
  });
}
