import { useTranslation } from 'react-i18next';
import { dateFormat } from '../../lib/i18n';

// The thread's day separators: each day of messages opens with its name, as messaging apps show it.

/** The local calendar day of a moment (yyyy-mm-dd), or '' for a date that cannot be read. */
export function localDay(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A day's name: `today` or `yesterday` (the words, in the UI language), otherwise its date written out. */
export function dayLabel(
  iso: string,
  now: Date,
  language: string,
  words: { today: string; yesterday: string },
): string {
  const date = new Date(iso);
  const day = localDay(date);
  if (!day) return '';
  if (day === localDay(now)) return words.today;
  const before = new Date(now);
  before.setDate(now.getDate() - 1);
  if (day === localDay(before)) return words.yesterday;
  return dateFormat(language, { day: 'numeric', month: 'long', year: 'numeric' }).format(date);
}

/** The indexes of the messages (oldest first) that open a new day: a separator goes before each. */
export function dayStarts(messages: readonly { created_at: string }[]): Set<number> {
  const starts = new Set<number>();
  let previous: string | null = null;
  messages.forEach((message, index) => {
    const day = localDay(new Date(message.created_at));
    if (day && day !== previous) starts.add(index);
    if (day) previous = day;
  });
  return starts;
}

/** The separator before a day's first message. `now` decides what 'today' is (a test passes its own). */
export function DaySeparator({ iso, now }: { iso: string; now: Date }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const label = dayLabel(iso, now, language, {
    today: t('chat.day.today'),
    yesterday: t('chat.day.yesterday'),
  });
  return (
    <p className="chat-day">
      <time dateTime={localDay(new Date(iso))}>{label}</time>
    </p>
  );
}
