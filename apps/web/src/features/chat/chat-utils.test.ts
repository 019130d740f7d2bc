import { describe, expect, it } from 'vitest';
import {
  CHAT_WINDOW_MS,
  chatWindow,
  fillTemplate,
  mergeMessages,
  safeMediaBlob,
  templatePlaceholders,
  timeLabel,
  unreadDividerIndex,
} from './chat-utils';

const local = (y: number, mo: number, d: number, h = 0, mi = 0) => new Date(y, mo - 1, d, h, mi);

describe('timeLabel', () => {
  const now = local(2026, 11, 24, 15, 30);

  it('shows the time for a message of today', () => {
    const label = timeLabel(local(2026, 11, 24, 9, 5).toISOString(), now, 'es', 'Ayer');
    expect(label).toMatch(/09:05/);
  });

  it("says 'Ayer' for yesterday, even just before midnight and just after", () => {
    expect(timeLabel(local(2026, 11, 23, 23, 59).toISOString(), now, 'es', 'Ayer')).toBe('Ayer');
    expect(timeLabel(local(2026, 11, 23, 0, 1).toISOString(), now, 'en', 'Yesterday')).toBe('Yesterday');
  });

  it('shows the date in the UI language for older messages', () => {
    const iso = local(2026, 3, 7, 12).toISOString();
    expect(timeLabel(iso, now, 'es', 'Ayer')).toBe('07/03/2026');
    expect(timeLabel(iso, now, 'en', 'Yesterday')).toBe('03/07/2026');
  });

  it('crosses a month and a year boundary for yesterday', () => {
    const newYear = local(2027, 1, 1, 8);
    expect(timeLabel(local(2026, 12, 31, 20).toISOString(), newYear, 'es', 'Ayer')).toBe('Ayer');
  });

  it('is empty without a date', () => {
    expect(timeLabel(null, now, 'es', 'Ayer')).toBe('');
    expect(timeLabel('not a date', now, 'es', 'Ayer')).toBe('');
  });
});

describe('chatWindow', () => {
  const at = Date.parse('2026-11-24T12:00:00.000Z');
  const msg = (sender: 'client' | 'admin' | 'bot', iso: string) => ({ sender_type: sender, created_at: iso });

  it('counts down 24 hours from the last customer message', () => {
    const window = chatWindow(
      [
        msg('client', '2026-11-23T20:00:00.000Z'),
        msg('client', '2026-11-24T10:30:15.000Z'),
        msg('admin', '2026-11-24T11:59:00.000Z'),
      ],
      at,
    );
    expect(window).toEqual({ state: 'open', hours: 22, minutes: 30, seconds: 15 });
  });

  it('ignores the company side: only a customer message opens the window', () => {
    expect(
      chatWindow([msg('admin', '2026-11-24T11:00:00.000Z'), msg('bot', '2026-11-24T11:00:00.000Z')], at),
    ).toEqual({
      state: 'none',
    });
    expect(chatWindow([], at)).toEqual({ state: 'none' });
  });

  it('is closed exactly 24 hours after the customer wrote', () => {
    const last = at - CHAT_WINDOW_MS;
    expect(chatWindow([msg('client', new Date(last).toISOString())], at)).toEqual({ state: 'closed' });
    expect(chatWindow([msg('client', new Date(last + 1000).toISOString())], at)).toEqual({
      state: 'open',
      hours: 0,
      minutes: 0,
      seconds: 1,
    });
  });
});

describe('unreadDividerIndex', () => {
  it('points at the first customer message not read yet', () => {
    const messages = [
      { sender_type: 'client' as const, status: 2 },
      { sender_type: 'admin' as const, status: 1 },
      { sender_type: 'client' as const, status: 1 },
      { sender_type: 'client' as const, status: 1 },
    ];
    expect(unreadDividerIndex(messages)).toBe(2);
  });

  it('ignores the company messages that are not read and is -1 when everything is read', () => {
    expect(
      unreadDividerIndex([
        { sender_type: 'admin', status: 1 },
        { sender_type: 'bot', status: 3 },
        { sender_type: 'client', status: 2 },
      ]),
    ).toBe(-1);
  });
});

describe('mergeMessages', () => {
  it('keeps each id once (the latest copy) and sorts oldest first, sending ones last at a tie', () => {
    const a = { id: 1, created_at: '2026-11-24T10:00:00.000Z', v: 'old' };
    const b = { id: 2, created_at: '2026-11-24T11:00:00.000Z', v: 'b' };
    const a2 = { id: 1, created_at: '2026-11-24T10:00:00.000Z', v: 'new' };
    const temp = { id: -1, created_at: '2026-11-24T11:00:00.000Z', v: 'sending' };
    expect(mergeMessages([b, a], [temp], [a2]).map((m) => `${m.id}:${m.v}`)).toEqual([
      '1:new',
      '2:b',
      '-1:sending',
    ]);
  });
});

describe('templates', () => {
  it('lists each numbered placeholder once, in number order', () => {
    expect(templatePlaceholders('Hola {{2}}, {{1}} y {{ 2 }} {{10}}')).toEqual(['1', '2', '10']);
    expect(templatePlaceholders('Sin variables')).toEqual([]);
  });

  it('fills the placeholders that have a value and leaves the others', () => {
    expect(fillTemplate('Hola {{1}}, tu pedido {{2}}', { '1': 'Ana' })).toBe('Hola Ana, tu pedido {{2}}');
  });
});

describe('safeMediaBlob', () => {
  it('keeps the types the chat shows, and turns anything else into an opaque download', () => {
    for (const type of ['image/jpeg', 'video/mp4', 'audio/ogg; codecs=opus', 'application/pdf']) {
      const blob = new Blob(['x'], { type });
      expect(safeMediaBlob(blob), type).toBe(blob);
    }
    for (const type of ['text/html', 'image/svg+xml', 'application/xhtml+xml', 'text/javascript', '']) {
      const safe = safeMediaBlob(new Blob(['<script>alert(1)</script>'], { type }));
      expect(safe.type, type).toBe('application/octet-stream');
      expect(safe.size).toBe(25);
    }
  });
});
