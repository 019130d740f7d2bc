import type { BusinessHours } from '@hablabot/contract';
import { businessHoursApi } from '@hablabot/contract/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api-client';

/** Query key of the business hours (no localised text in them). */
export const businessHoursKey = ['settings', 'business-hours'] as const;

export function useBusinessHours() {
  return useQuery({
    queryKey: businessHoursKey,
    queryFn: ({ signal }) => call(businessHoursApi.get, {}, { signal }),
  });
}

/** PUT /admin/business-hours; the answer replaces the cached hours. */
export function useSaveBusinessHours() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BusinessHours) => call(businessHoursApi.save, { body }),
    onSuccess: (response) => queryClient.setQueryData(businessHoursKey, { data: response.data }),
  });
}
