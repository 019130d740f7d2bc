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
  const conversation = page.getByRole('region', { name });
  // The row may already show before the search's answer replaces the list, and move when it does: a
  // click that landed as the rows moved opened nothing, so it is made again.
  await expect(async () => {
    await page.getByRole('button', { name: new RegExp(`^${name}`) }).click();
    await expect(conversation.getByRole('heading', { name })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 10_000 });
  return conversation;
}
