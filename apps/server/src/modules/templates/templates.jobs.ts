import { z } from 'zod';
import { on } from '../../platform/events/domain-events';
import { AppError } from '../../platform/errors';
import { defineJob } from '../../platform/jobs/definitions';
import type { JobQueue } from '../../platform/jobs/jobs';
import type { TemplatesService } from './templates.service';

/**
 * The company's approved templates fetched from WhatsApp in the background. What the admin must fix (a
 * refused token, an unknown account, missing settings) does not mend by waiting: the job ends, and the
 * next sync the admin asks for tells them what is wrong; an outage is tried again.
 */
export const templatesSyncJob = (templates: Pick<TemplatesService, 'sync'>) =>
  defineJob({
    name: 'templates.sync',
    schema: z.object({ companyId: z.number().int() }),
    handler: async ({ companyId }) => {
      try {
        await templates.sync(companyId);
      } catch (error) {
        if (error instanceof AppError && error.statusCode < 500) return;
        throw error;
      }
    },
  });

/** Saving the company's WhatsApp number or token fetches its templates: the list is ready when it is needed. */
export const templatesSyncSubscriber = (jobs: Pick<JobQueue, 'enqueue'>) =>
  on('channel.saved', 'templates.sync-after-save', async (e) => {
    await jobs.enqueue('templates.sync', { companyId: e.companyId }, { dedupeKey: String(e.companyId) });
  });
