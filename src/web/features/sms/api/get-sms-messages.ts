import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { SmsMessagesPage } from '#shared/features/sms/sms';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys, queryString } from '#web/platform/lib/query-keys';

export interface SmsMessagesFilters {
  /** A municipality's or parish's slug; '' for every one. */
  department: string;
  /** A number as typed; '' for every one. */
  phone: string;
}

export const getSmsMessages = (filters: SmsMessagesFilters, before?: number) =>
  apiFetch<SmsMessagesPage>(
    `/api/admin/sms/messages${queryString({ department: filters.department, phone: filters.phone.trim(), before })}`,
  );

export const getSmsMessagesQueryOptions = (filters: SmsMessagesFilters) =>
  infiniteQueryOptions({
    queryKey: adminKeys.smsMessages(filters),
    queryFn: ({ pageParam }) => getSmsMessages(filters, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** Every SMS received and sent, newest first, 50 at a time, by department and number. */
export const useSmsMessages = (filters: SmsMessagesFilters) =>
  useInfiniteQuery({ ...getSmsMessagesQueryOptions(filters), placeholderData: keepPreviousData });
