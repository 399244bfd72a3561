import { useMutation } from '@tanstack/react-query';
import { utcOffsetMinutes } from '../../../lib/dates';
import { downloadFile } from '../../../lib/http';

export interface ExportFilters {
  content?: string;
  enabled?: boolean;
  expired?: boolean;
}

/** GET /api/user/exportEmailAccount: the accounts matching the filters as a CSV file (UTF-8 with BOM). */
export function exportEmailAccounts(filters: ExportFilters): Promise<string> {
  return downloadFile('/user/exportEmailAccount', {
    ...filters,
    content: filters.content?.trim() || undefined,
    utcOffsetMinutes: utcOffsetMinutes(),
  });
}

export function useExportEmailAccounts() {
  return useMutation({ mutationFn: exportEmailAccounts });
}
