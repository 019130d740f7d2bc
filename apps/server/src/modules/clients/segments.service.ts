import type { Segment, SegmentRequest } from '@hablabot/contract';
import { isUniqueViolation } from '../../db/errors';
import { conflict, notFound } from '../../platform/errors';
import type { WithTransaction } from '../../repositories';
import type { SegmentsRepository } from './segments.repository';

/** A company's segments: names unique per company (ignoring case and accents), colour #RRGGBB, rules. */
export function createSegmentsService(deps: {
  segmentsRepository: SegmentsRepository;
  withTransaction: WithTransaction;
}) {
  const { segmentsRepository: repo, withTransaction } = deps;

  async function get(companyId: number, id: number): Promise<Segment> {
    const segment = await repo.findSegment(companyId, id);
    if (!segment) throw notFound('segments.not_found');
    return segment;
  }

  /** Runs a write; a duplicate name that slipped past the check (a race) is still a 409. */
  async function guardName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('segments.name_taken', 'name');
      throw err;
    }
  }

  return {
    list: (companyId: number) => repo.listSegments(companyId),

    get,

    async create(companyId: number, input: SegmentRequest): Promise<Segment> {
      if (await repo.nameTaken(companyId, input.name)) throw conflict('segments.name_taken', 'name');
      const id = await guardName(() => repo.createSegment(companyId, input));
      return get(companyId, id);
    },

    async update(companyId: number, id: number, input: SegmentRequest): Promise<Segment> {
      await get(companyId, id);
      if (await repo.nameTaken(companyId, input.name, id)) throw conflict('segments.name_taken', 'name');
      if (!(await guardName(() => repo.updateSegment(companyId, id, input))))
        throw notFound('segments.not_found');
      return get(companyId, id);
    },

    /**
     * Deletes the segment and takes it off the clients that had it, which count as updated (their
     * segments changed): both writes in one transaction.
     */
    async remove(companyId: number, id: number): Promise<void> {
      const deleted = await withTransaction(async (tx) => {
        await tx.clientsRepository.touchSegmentMembers(companyId, id);
        return tx.segmentsRepository.deleteSegment(companyId, id);
      });
      if (!deleted) throw notFound('segments.not_found');
    },
  };
}

export type SegmentsService = ReturnType<typeof createSegmentsService>;
