import type {
  BotMode,
  Client,
  ClientInput,
  ClientsQueryParams,
  MessagesSummaryQueryParams,
  Pagination,
} from '@hablabot/contract';
import { isUniqueViolation } from '../../db/errors';
import { conflict, invalid, notFound } from '../../platform/errors';
import { canonicalPhone } from '../../platform/phone';
import type { WithTransaction } from '../../repositories';
import type { ClientValues, ClientsRepository } from './clients.repository';
import type { SegmentsRepository } from './segments.repository';

/**
 * A company's clients: phone unique per company (with its mobile variants: one phone, one client, see
 * platform/phone.ts; stored in its canonical form), at least one segment of the same company. A client and
 * its segment links are written in one transaction (`withTransaction`), so neither is ever saved alone.
 */
export function createClientsService(deps: {
  clientsRepository: ClientsRepository;
  segmentsRepository: Pick<SegmentsRepository, 'findChips'>;
  withTransaction: WithTransaction;
}) {
  const { clientsRepository: repo, segmentsRepository: segments, withTransaction } = deps;

  /** A segment deleted between the check and the write: the transaction rolls back, the caller gets 422. */
  const segmentsGone = () => invalid('segments', 'clients.unknown_segment');

  async function get(companyId: number, id: number): Promise<Client> {
    const client = await repo.findClient(companyId, id);
    if (!client) throw notFound('clients.not_found');
    return client;
  }

  /** The segment ids, deduplicated, when every one is the company's; a 422 on `segments` otherwise. */
  async function ownSegmentIds(companyId: number, ids: number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    const found = await segments.findChips(companyId, unique);
    if (found.length !== unique.length) throw invalid('segments', 'clients.unknown_segment');
    return unique;
  }

  function valuesOf(input: ClientInput): ClientValues {
    return {
      name: input.name,
      last_names: input.last_names,
      whatsapp_cellphone: canonicalPhone(input.whatsapp_cellphone),
      email: input.email,
      avatar: input.avatar,
      projects: input.projects,
    };
  }

  /** Runs a write; a phone taken between the check and the write (a race) is still a 409. */
  async function guardPhone<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('clients.phone_taken', 'whatsapp_cellphone');
      throw err;
    }
  }

  return {
    /** One page of the client table, with where it sits in the whole (matching) list. */
    async list(
      companyId: number,
      query: ClientsQueryParams,
    ): Promise<{ clients: Client[]; pagination: Pagination }> {
      const { clients, total } = await repo.listClients(companyId, {
        search: query.search,
        sort: query.sort,
        order: query.order,
        limit: query.per_page,
        offset: (query.page - 1) * query.per_page,
      });
      return {
        clients,
        pagination: {
          current_page: query.page,
          per_page: query.per_page,
          total,
          last_page: Math.max(1, Math.ceil(total / query.per_page)),
        },
      };
    },

    /**
     * The chat list, read from the client rows (last message, unread count): one query per page. A page
     * holds at most CLIENTS_PER_PAGE_MAX clients; one row more than the page tells whether another page
     * follows, without counting. `onlyFor`: an agent who sees only their own and unassigned conversations.
     */
    async messagesSummary(companyId: number, query: MessagesSummaryQueryParams, onlyFor?: number) {
      const rows = await repo.listForChat(companyId, {
        search: query.search,
        onlyFor,
        limit: query.per_page + 1,
        offset: (query.page - 1) * query.per_page,
      });
      return {
        clients: rows.slice(0, query.per_page),
        pagination: {
          current_page: query.page,
          per_page: query.per_page,
          has_more: rows.length > query.per_page,
        },
      };
    },

    get,

    async create(companyId: number, input: ClientInput): Promise<Client> {
      const segmentIds = await ownSegmentIds(companyId, input.segments);
      if (await repo.phoneTaken(companyId, canonicalPhone(input.whatsapp_cellphone)))
        throw conflict('clients.phone_taken', 'whatsapp_cellphone');
      const id = await guardPhone(() =>
        withTransaction(async (tx) => {
          const id = await tx.clientsRepository.insertClient(companyId, valuesOf(input));
          if (!(await tx.segmentsRepository.setClientSegments(companyId, id, segmentIds)))
            throw segmentsGone();
          return id;
        }),
      );
      return get(companyId, id);
    },

    async update(companyId: number, id: number, input: ClientInput): Promise<Client> {
      await get(companyId, id);
      const segmentIds = await ownSegmentIds(companyId, input.segments);
      if (await repo.phoneTaken(companyId, canonicalPhone(input.whatsapp_cellphone), id))
        throw conflict('clients.phone_taken', 'whatsapp_cellphone');
      const updated = await guardPhone(() =>
        withTransaction(async (tx) => {
          if (!(await tx.clientsRepository.updateClient(companyId, id, valuesOf(input)))) return false;
          if (!(await tx.segmentsRepository.setClientSegments(companyId, id, segmentIds)))
            throw segmentsGone();
          return true;
        }),
      );
      if (!updated) throw notFound('clients.not_found');
      return get(companyId, id);
    },

    /** Deletes all the clients or none: one id that is not the company's makes it a 404. */
    async remove(companyId: number, ids: number[]): Promise<void> {
      const unique = [...new Set(ids)];
      if (!(await repo.deleteClients(companyId, unique))) throw notFound('clients.not_found');
    },

    /** Pauses (0) or resumes (1) the bot for the client (`conversation.updated`: the chat screens). */
    async setBotMode(companyId: number, id: number, mode: BotMode): Promise<Client> {
      const saved = await withTransaction(async (tx) => {
        if (!(await tx.clientsRepository.setBotMode(companyId, id, mode))) return false;
        tx.events.emit('conversation.updated', { companyId, clientId: id, changed: ['bot_mode'] });
        return true;
      });
      if (!saved) throw notFound('clients.not_found');
      return get(companyId, id);
    },
  };
}

export type ClientsService = ReturnType<typeof createClientsService>;
