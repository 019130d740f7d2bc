import type {
  ClientList,
  MassMessage,
  MassMessageCounts,
  MassRecipient,
  MessageTemplate,
} from '@hablabot/contract';

export function makeList(overrides: Partial<ClientList> = {}): ClientList {
  return {
    id: 1,
    name: 'Clientes VIP',
    clients_count: 2,
    created_at: '2026-11-22T10:00:00.000Z',
    updated_at: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}

export function makeTemplate(overrides: Partial<MessageTemplate> = {}): MessageTemplate {
  return {
    id: 1,
    name: 'promo_diciembre',
    language: 'es',
    category: 'MARKETING',
    status: 'APPROVED',
    components: [{ type: 'BODY', format: null, text: 'Hola {{1}}, tu código es {{2}}.', buttons: [] }],
    ...overrides,
  };
}

export function makeCounts(overrides: Partial<MassMessageCounts> = {}): MassMessageCounts {
  return {
    total: 10,
    queued: 10,
    sending: 0,
    sent: 0,
    delivered: 0,
    read: 0,
    failed: 0,
    unknown: 0,
    cancelled: 0,
    ...overrides,
  };
}

export function makeSend(overrides: Partial<MassMessage> = {}): MassMessage {
  return {
    id: 1,
    name: 'Promo diciembre',
    status: 'sending',
    list_id: 1,
    list_name: 'Clientes VIP',
    message_template_id: 1,
    template_name: 'promo_diciembre',
    template_language: 'es',
    message: 'Hola {{Nombre}}, tu código es X1.',
    bodyParameters: { '1': '{{Nombre}}', '2': 'X1' },
    media_id: null,
    messages_per_second: 80,
    scheduled_at: null,
    started_at: '2026-11-22T10:00:00.000Z',
    finished_at: null,
    retry_capped: false,
    waiting_limit_until: null,
    counts: makeCounts(),
    created_at: '2026-11-22T10:00:00.000Z',
    updated_at: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}

export function makeRecipient(overrides: Partial<MassRecipient> = {}): MassRecipient {
  return {
    id: 1,
    client_id: 1,
    name: 'Ana',
    last_names: 'García',
    phone: '5215512345678',
    status: 'sent',
    wamid: 'wamid.1',
    error_code: null,
    error_message: null,
    error: null,
    attempts: 1,
    retry_at: null,
    sent_at: '2026-11-22T10:00:01.000Z',
    delivered_at: null,
    read_at: null,
    updated_at: '2026-11-22T10:00:01.000Z',
    ...overrides,
  };
}

/** A history answer holding `rows`. */
export function historyBody(rows: MassMessage[]) {
  return { data: { data: rows, current_page: 1, per_page: 10, total: rows.length } };
}
