import { on, onMany } from '../../platform/events/domain-events';
import type { Consent } from './consent';

/**
 * Consent reacts to a customer's message (an opt-out or opt-in word) and to WhatsApp's statuses
 * (Meta's 131050: the customer stopped marketing messages). See consent.ts.
 */
export const consentSubscribers = (consent: Pick<Consent, 'afterCustomerMessages' | 'afterStatus'>) => [
  onMany('message.received', 'clients.consent-words', (events) => consent.afterCustomerMessages(events)),
  on('whatsapp.status_reported', 'clients.consent-131050', (e) =>
    consent.afterStatus(e.companyId, e.wamid, e.errorCode),
  ),
];
