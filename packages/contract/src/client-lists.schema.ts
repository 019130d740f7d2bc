import { z } from 'zod';
import { ZTimestamp, requiredText, zIdList, zText } from './common.schema';
import { ZPagination } from './clients.schema';

// ---------------------------------------------------------------------------------------------------
// Client lists (`/admin/list-clients`): a named set of a company's clients that mass messages go to.
// ---------------------------------------------------------------------------------------------------

export const CLIENT_LIST_NAME_MAX = 120;
/** The most clients one list may hold (and one request may name). */
export const CLIENT_LIST_MAX_CLIENTS = 200_000;

/**
 * A client list: its name and how many clients it holds (`clients_count`). The members themselves are
 * not in it (a list may hold 200,000): they come a page at a time from GET /admin/list-clients/{id}/clients.
 */
export const ZClientList = z.object({
  id: z.number().int(),
  name: z.string(),
  clients_count: z.number().int(),
  created_at: ZTimestamp,
  updated_at: ZTimestamp,
});
export type ClientList = z.infer<typeof ZClientList>;

/**
 * Body of POST /admin/list-clients and PUT /admin/list-clients/{id}.
 *
 * - `client_ids`: the clients of the list (on PUT the list becomes exactly these, plus the segments').
 *   Every id must be a client of the caller's company, else 422 on `client_ids`.
 * - `segment_ids` (optional): "add every client of these segments" — their current clients are added to
 *   `client_ids`. Segments of another company are refused with 422 on `segment_ids`.
 * - The list needs at least one client after both are merged (422 'list_clients.clients_required' on
 *   `client_ids`).
 */
export const ZClientListRequest = z.object({
  name: requiredText(CLIENT_LIST_NAME_MAX),
  client_ids: zIdList({ max: CLIENT_LIST_MAX_CLIENTS }).default([]),
  segment_ids: zIdList({ max: 200 }).optional(),
});
export type ClientListRequest = z.input<typeof ZClientListRequest>;
export type ClientListInput = z.output<typeof ZClientListRequest>;

/** The most lists one page of GET /admin/list-clients holds (also its default). */
export const CLIENT_LISTS_PER_PAGE_MAX = 100;

/**
 * GET /admin/list-clients query (added by us, all optional): one page of the company's lists by name;
 * `search` matches part of the name, ignoring case.
 */
export const ZClientListsQuery = z.object({
  search: zText({ max: 100 }).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(CLIENT_LISTS_PER_PAGE_MAX).default(CLIENT_LISTS_PER_PAGE_MAX),
});
export type ClientListsQuery = z.input<typeof ZClientListsQuery>;

/** GET /admin/list-clients: one page of the company's lists, by name, and where it sits. */
export const ZClientListsResponse = z.object({ data: z.array(ZClientList), pagination: ZPagination });
export type ClientListsResponse = z.infer<typeof ZClientListsResponse>;

/** POST (201) and PUT (200) /admin/list-clients. */
export const ZClientListMutationResponse = z.object({ message: z.string(), data: ZClientList });
export type ClientListMutationResponse = z.infer<typeof ZClientListMutationResponse>;

/** A member of a list as the list form shows it (a chip of the multi-select). */
export const ZClientListMember = z.object({
  id: z.number().int(),
  name: z.string(),
  last_names: z.string(),
  whatsapp_cellphone: z.string(),
  email: z.string().nullable(),
});
export type ClientListMember = z.infer<typeof ZClientListMember>;

/**
 * GET /admin/list-clients/{id}/clients?search=&page=&per_page= (added by us): one page of a list's members
 * with their names, so a list of 50,000 can be shown and searched (name, last names, email or phone,
 * ignoring case and accents). Sorted by id.
 */
export const ZClientListMembersQuery = z.object({
  search: zText({ max: 100 }).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(1000).default(50),
});
export type ClientListMembersQuery = z.input<typeof ZClientListMembersQuery>;

export const ZClientListMembersResponse = z.object({
  data: z.object({
    data: z.array(ZClientListMember),
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
  }),
});
export type ClientListMembersResponse = z.infer<typeof ZClientListMembersResponse>;
