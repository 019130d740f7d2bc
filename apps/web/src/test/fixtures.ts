import type { Client, MediaItem, Segment } from '@hablabot/contract';

export function makeSegment(overrides: Partial<Segment> = {}): Segment {
  return {
    id: 1,
    name: 'VIP',
    color: '#1a73e8',
    rules: 'Compran más de 3 veces al mes',
    clients_count: 1,
    created_at: '2026-11-22T10:00:00.000Z',
    updated_at: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}

export function makeClient(overrides: Partial<Client> = {}): Client {
  return {
    id: 1,
    name: 'Ana',
    last_names: 'García López',
    whatsapp_cellphone: '5215512345678',
    email: 'ana@example.com',
    avatar: null,
    projects: null,
    segments: [{ id: 1, name: 'VIP', color: '#1a73e8' }],
    mode_bot: 1,
    last_message_content: null,
    last_message_date: null,
    unread_messages_count: 0,
    created_at: '2026-11-22T10:00:00.000Z',
    updated_at: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}

/** A File with the given text, the way a file input hands it over. */
export function csvFile(text: string, name = 'clientes.csv', type = 'text/csv'): File {
  return new File([text], name, { type });
}

/** A library file as GET /admin/media/user lists it. */
export function makeMedia(overrides: Partial<MediaItem> = {}): MediaItem {
  const id = overrides.id ?? 1;
  const hex = id.toString(16).padStart(32, 'a');
  const ext = overrides.kind === 'document' ? 'pdf' : overrides.kind === 'video' ? 'mp4' : 'png';
  const filePath = `media/${hex.slice(0, 2)}/${hex}.${ext}`;
  return {
    id,
    file_name: 'logo.png',
    file_path: filePath,
    url: `http://localhost/storage/${filePath}`,
    mime_type: 'image/png',
    kind: 'image',
    size: 2048,
    created_at: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}
