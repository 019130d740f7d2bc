import type { Client } from '@hablabot/contract';
import { foldText } from '../components/lib/text';
import { jsonResponse, type RecordedCall } from './api';

export interface ClientsListOptions {
  title?: string;
  subtitle?: string;
  message?: string;
  /** Titles per Accept-Language, for language-switch tests. */
  titles?: Record<string, { title: string; subtitle: string }>;
}

/**
 * A GET /admin/client route for mockFetch that answers the way the server does: `search` ignores
 * case and accents and matches the name and last names, the email or the phone's digits; `sort` and
 * `order` sort (ties by id); `page` and `per_page` cut one page and `pagination` says where it sits.
 * `clients` may be a function, so a test can change the list between calls.
 */
export function clientsListRoute(
  clients: readonly Client[] | (() => readonly Client[]),
  options: ClientsListOptions = {},
) {
  return (call: RecordedCall) => {
    const params = new URL(call.url, 'http://localhost').searchParams;
    const search = foldText(params.get('search') ?? '');
    const page = Number(params.get('page') ?? 1);
    const perPage = Number(params.get('per_page') ?? 1000);
    const sort = (params.get('sort') ?? 'id') as keyof Client;
    const desc = params.get('order') === 'desc';
    const all = typeof clients === 'function' ? clients() : clients;
    let rows = search
      ? all.filter((c) =>
          foldText(`${c.name} ${c.last_names} ${c.email ?? ''} ${c.whatsapp_cellphone}`).includes(search),
        )
      : [...all];
    const key = (c: Client) =>
      sort === 'name' ? foldText(`${c.name} ${c.last_names}`) : (c[sort] as string | number);
    rows.sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      const order = x < y ? -1 : x > y ? 1 : a.id - b.id;
      return desc ? -order : order;
    });
    const total = rows.length;
    rows = rows.slice((page - 1) * perPage, page * perPage);
    const texts = (call.language && options.titles?.[call.language]) || {
      title: options.title ?? 'Gestión de clientes',
      subtitle: options.subtitle ?? 'Administra tus clientes y segmentos',
    };
    return jsonResponse(200, {
      clients: rows,
      message: options.message ?? 'Clientes obtenidos con éxito.',
      ...texts,
      pagination: {
        current_page: page,
        per_page: perPage,
        total,
        last_page: Math.max(1, Math.ceil(total / perPage)),
      },
    });
  };
}
