import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { showErrorMessage } from './feedback';
import { t } from './i18n';

declare module '@tanstack/react-query' {
  interface Register {
    /** `silent: true` keeps a failure off the screen (the component shows it itself). */
    queryMeta: { silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : t('操作失败，请稍后再试');
}

/**
 * The one place where failed calls become messages (ant-design-pro's request-error config): every
 * query and mutation error shows the server's `msg` as an antd message unless its meta says silent.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!query.meta?.silent) showErrorMessage(errorText(error));
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (!mutation.meta?.silent) showErrorMessage(errorText(error));
      },
    }),
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
