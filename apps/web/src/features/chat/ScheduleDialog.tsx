import { SCHEDULE_MAX_DAYS } from '@hablabot/contract';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Modal } from '../../components';
import './scheduled.css';

const DAY_MS = 24 * 60 * 60 * 1000;

const pad = (n: number) => String(n).padStart(2, '0');

/** A moment as the date and time inputs show it, in the browser's time zone. */
export function localParts(at: Date): { date: string; time: string } {
  return {
    date: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`,
    time: `${pad(at.getHours())}:${pad(at.getMinutes())}`,
  };
}

export type ScheduleProblem = 'required' | 'past' | 'tooFar';

/**
 * The moment a date and a time of the browser's time zone name (ISO 8601, UTC), or why it cannot be a
 * send time: missing, not in the future, more than SCHEDULE_MAX_DAYS ahead.
 */
export function scheduledMoment(
  date: string,
  time: string,
  now = Date.now(),
): { iso: string } | { problem: ScheduleProblem } {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}$/.test(time)) return { problem: 'required' };
  const at = new Date(`${date}T${time}:00`);
  if (Number.isNaN(at.getTime())) return { problem: 'required' };
  if (at.getTime() <= now) return { problem: 'past' };
  if (at.getTime() > now + SCHEDULE_MAX_DAYS * DAY_MS) return { problem: 'tooFar' };
  return { iso: at.toISOString() };
}

/** A first suggestion: the next full hour that is at least 30 minutes away. */
function suggestion(now = new Date()): Date {
  const at = new Date(now.getTime() + 30 * 60 * 1000);
  at.setMinutes(0, 0, 0);
  at.setHours(at.getHours() + 1);
  return at;
}

export interface ScheduleDialogProps {
  open: boolean;
  onClose: () => void;
  /** Called with the chosen moment (ISO 8601); resolves once the server answered. */
  onConfirm: (sendAt: string, text?: string) => void | Promise<void>;
  /** The time already chosen (editing a scheduled message). */
  initial?: string | null;
  /** The message's text, editable here (editing a scheduled text message). */
  text?: string;
  busy?: boolean;
  /** The server's refusal, shown under the fields. */
  error?: string | null;
  title?: string;
}

/**
 * 'Programar envío': a date and a time in the admin's time zone (the browser's), checked before it is
 * sent: required, in the future, at most SCHEDULE_MAX_DAYS ahead.
 */
export function ScheduleDialog({
  open,
  onClose,
  onConfirm,
  initial,
  text,
  busy,
  error,
  title,
}: ScheduleDialogProps) {
  const { t } = useTranslation();
  const id = useId();
  const [date, setDate] = useState('');
  const [time, setTime] = useState('');
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<ScheduleProblem | 'text' | null>(null);
  useEffect(() => {
    if (!open) return;
    const start = initial ? new Date(initial) : suggestion();
    const parts = localParts(start);
    setDate(parts.date);
    setTime(parts.time);
    setDraft(text ?? '');
    setProblem(null);
  }, [open, initial, text]);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const today = localParts(new Date()).date;
  const last = localParts(new Date(Date.now() + SCHEDULE_MAX_DAYS * DAY_MS)).date;

  const submit = () => {
    const moment = scheduledMoment(date, time);
    if ('problem' in moment) {
      setProblem(moment.problem);
      return;
    }
    if (text !== undefined && draft.trim() === '') {
      setProblem('text');
      return;
    }
    setProblem(null);
    void onConfirm(moment.iso, text !== undefined && draft.trim() !== text ? draft.trim() : undefined);
  };

  const message = problem ? t(`chat.schedule.problem.${problem}`, { days: SCHEDULE_MAX_DAYS }) : error;
  return (
    <Modal
      open={open}
      onClose={onClose}
      size="sm"
      title={title ?? t('chat.schedule.title')}
      description={t('chat.schedule.zone', { zone })}
      footer={
        <>
          <Button onClick={onClose}>{t('chat.schedule.close')}</Button>
          <Button variant="primary" busy={busy} onClick={submit}>
            {t('chat.schedule.confirm')}
          </Button>
        </>
      }
    >
      <form
        className="chat-schedule"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {text !== undefined ? (
          <label className="chat-schedule__field chat-schedule__field--text">
            <span>{t('chat.schedule.text')}</span>
            <textarea
              rows={3}
              value={draft}
              aria-invalid={problem === 'text'}
              onChange={(event) => setDraft(event.target.value)}
            />
          </label>
        ) : null}
        <label className="chat-schedule__field">
          <span>{t('chat.schedule.date')}</span>
          <input
            type="date"
            value={date}
            min={today}
            max={last}
            required
            aria-invalid={problem !== null && problem !== 'text'}
            aria-describedby={message ? `${id}-error` : undefined}
            onChange={(event) => setDate(event.target.value)}
          />
        </label>
        <label className="chat-schedule__field">
          <span>{t('chat.schedule.time')}</span>
          <input
            type="time"
            value={time}
            required
            aria-invalid={problem !== null && problem !== 'text'}
            aria-describedby={message ? `${id}-error` : undefined}
            onChange={(event) => setTime(event.target.value)}
          />
        </label>
        {message ? (
          <p id={`${id}-error`} className="chat-schedule__error" role="alert">
            {message}
          </p>
        ) : null}
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}
