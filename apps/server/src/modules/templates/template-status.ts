import { readTemplateUpdates } from '../../integrations/whatsapp/template-webhook';
import { verifyWebhookSignature } from '../../integrations/whatsapp/webhook';
import { AppError } from '../../platform/errors';
import type { Outbox } from '../../platform/outbox/outbox';
import type { SettingsService } from '../settings/settings.service';
import { createTemplatesRepository } from './templates.repository';

/**
 * Meta's review of the company's templates, as the webhook reports it (fields
 * `message_template_status_update` and `message_template_quality_update`): the stored template takes
 * the new status (APPROVED, REJECTED with the reason, PAUSED, DISABLED …) or quality at once, and the
 * domain event 'template.changed' tells the 'Plantillas' screen live — no waiting for a sync.
 *
 * Checked by the webhook route for every delivery, applied by the webhook inbox after the customer
 * messages and statuses (inbound.service.ts), which leave these changes alone. A change names the
 * WhatsApp Business Account, not a phone number: it is routed to the company whose settings hold that account id, and that
 * company's app secret must have signed the delivery (401 otherwise, nothing written), with the same
 * rule for a company without an app secret as the messages have.
 */
export function createTemplateStatusReceiver(deps: {
  settings: Pick<SettingsService, 'accountOwners'>;
  outbox: Pick<Outbox, 'transaction'>;
  requireSignature?: boolean;
}) {
  const requireSignature = deps.requireSignature ?? false;
  return {
    /**
     * Checks the template changes of one delivery before it is taken (its parsed body, the raw bytes
     * and the signature header): 401 when an owning company's app secret did not sign it. Answers the
     * companies concerned; writes nothing.
     */
    async check(
      body: unknown,
      raw: Buffer,
      signature: string | undefined,
      log: { warn(obj: object, msg?: string): void },
    ): Promise<number[]> {
      const updates = readTemplateUpdates(body);
      if (updates.length === 0) return [];
      const owners = await deps.settings.accountOwners([...new Set(updates.map((u) => u.accountId))]);
      for (const [accountId, owner] of owners) {
        const secret = owner.appSecret;
        const verified =
          typeof secret === 'string'
            ? verifyWebhookSignature(secret, raw, signature)
            : secret === null && !requireSignature;
        if (verified) continue;
        log.warn(
          { businessAccountId: accountId, companyId: owner.companyId, signed: Boolean(signature) },
          'whatsapp template webhook with a missing or wrong signature',
        );
        throw new AppError(401, 'messaging.bad_signature');
      }
      return [...owners.values()].map((o) => o.companyId);
    },

    /** Applies a taken delivery's template changes (again harmlessly); how many templates changed. */
    async apply(body: unknown): Promise<{ templates: number }> {
      const updates = readTemplateUpdates(body);
      if (updates.length === 0) return { templates: 0 };
      const owners = await deps.settings.accountOwners([...new Set(updates.map((u) => u.accountId))]);
      let changed = 0;
      for (const update of updates) {
        const companyId = owners.get(update.accountId)?.companyId;
        if (companyId === undefined) continue;
        const done = await deps.outbox.transaction(async (trx, events) => {
          const repo = createTemplatesRepository(trx);
          const template = await repo.findByMeta(companyId, update);
          if (!template) return false;
          await repo.applyReview(companyId, template.id, {
            status: update.status,
            // A new status brings its own reason (none once approved); a quality change keeps it.
            rejected_reason: update.status === undefined ? undefined : (update.reason ?? null),
            quality: update.quality,
          });
          events.emit('template.changed', { companyId, templateId: template.id, deleted: null });
          return true;
        });
        if (done) changed++;
      }
      return { templates: changed };
    },
  };
}

export type TemplateStatusReceiver = ReturnType<typeof createTemplateStatusReceiver>;
