import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * Opens a customer's conversation in the chat screen (already on /admin/chat): finds them with the list's
 * search box (`search` is its label in the page's language), clicks their row, and waits for the
 * conversation's heading. The conversation's region, for what the test does next.
 */
export async function openConversation(
  page: Page,
  name: string,
  search = 'Buscar clientes...',
): Promise<Locator> {
  await page.getByRole('searchbox', { name: search }).fill(name);
  await page.getByRole('button', { name: new RegExp(`^${name}`) }).click();
  const conversation = page.getByRole('region', { name });
  await expect(conversation.getByRole('heading', { name })).toBeVisible();
  return conversation;
}
