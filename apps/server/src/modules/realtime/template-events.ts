import { type Subscriber, on } from '../../platform/events/domain-events';
import type { EventBus } from '../../platform/events/events';
import type { TemplatesRepository } from '../templates/templates.repository';

/**
 * The live event of the templates (part of the real-time module, beside realtime.subscribers.ts):
 * 'template.changed' → 'template.updated' with the template as GET /templates lists it, read as it is
 * now, so the 'Plantillas' screen shows Meta's verdict the moment its webhook arrives. A deleted one is
 * sent by its id, name and language with `deleted: true`. Published without an audience: the company's
 * admins only (templates are theirs alone).
 */
export function templateSubscribers(deps: {
  events: Pick<EventBus, 'publish'>;
  templatesRepository: Pick<TemplatesRepository, 'findTemplate'>;
}): Subscriber[] {
  return [
    on('template.changed', 'realtime.template-changed', async (e) => {
      if (e.deleted) {
        await deps.events.publish(e.companyId, {
          type: 'template.updated',
          data: {
            deleted: true,
            template: {
              id: e.templateId,
              name: e.deleted.name,
              language: e.deleted.language,
              category: '',
              status: 'DELETED',
              components: [],
            },
          },
        });
        return;
      }
      const template = await deps.templatesRepository.findTemplate(e.companyId, e.templateId);
      if (!template) return;
      await deps.events.publish(e.companyId, {
        type: 'template.updated',
        data: { deleted: false, template },
      });
    }),
  ];
}
