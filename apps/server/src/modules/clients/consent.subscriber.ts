import { on } from '../../platform/events/domain-events';
import type { Consent } from './consent';

/**
 * Consent reacts to a customer's message (an opt-out or opt-in word) and to WhatsApp's statuses
 * (Meta's 131050: the customer stopped marketing messages). See consent.ts.
 */
export const consentSubscribers = (consent: Pick<Consent, 'afterCustomerMessage' | 'afterStatus'>) => [
  on('message.received', 'clients.consent-words', (e) =>
    consent.afterCustomerMessage(e.companyId, e.clientId, e.messageId),
  ),
  on('whatsapp.status_reported', 'clients.consent-131050', (e) =>
    consent.afterStatus(e.companyId, e.wamid, e.errorCode),
  ),
];
