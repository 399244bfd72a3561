import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { showErrorMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { deleteEmails, deleteEmailsKeepalive } from '../api/delete-emails';
import { invalidateMailLists, mailKeys } from '../api/get-inbox';

/** How long a deletion can be taken back. */
export const UNDO_DELETE_MS = 5_000;

interface PendingDelete {
  ids: number[];
  timer: ReturnType<typeof setTimeout>;
}

function without(set: ReadonlySet<number>, ids: number[]): ReadonlySet<number> {
  const next = new Set(set);
  for (const id of ids) next.delete(id);
  return next;
}

/**
 * Deleting with undo. The rows leave the list at once, but the server is asked only when the undo
 * time is up, so that 撤销 needs nothing from the server and cannot fail, and nothing is deleted that
 * the person took back. The waiting deletion is sent at once (a keepalive request, which outlives the
 * page) when the page is left or hidden and when the inbox is left for another screen of the app,
 * and a second deletion sends the first before its own time starts. Should sending fail, the rows
 * come back with the error: mail is never shown as deleted while it is still there.
 */
export function useUndoableDelete() {
  const queryClient = useQueryClient();
  const pending = useRef<PendingDelete | null>(null);
  /** rows deleted on screen and not yet gone from the lists */
  const [hidden, setHidden] = useState<ReadonlySet<number>>(() => new Set());
  /** the undo notice: how many were deleted; `at` tells one deletion from the next */
  const [notice, setNotice] = useState<{ count: number; at: number } | null>(null);

  const send = useCallback(
    (ids: number[], leaving: boolean) => {
      (leaving ? deleteEmailsKeepalive : deleteEmails)(ids).then(
        async () => {
          for (const id of ids) queryClient.removeQueries({ queryKey: mailKeys.detail(id) });
          await invalidateMailLists(queryClient);
          // The lists were fetched again without them: nothing left to hide.
          setHidden((current) => without(current, ids));
        },
        (error: unknown) => {
          setHidden((current) => without(current, ids));
          showErrorMessage(
            t('删除失败，邮件已恢复：{reason}', {
              reason: error instanceof Error ? error.message : String(error),
            }),
          );
        },
      );
    },
    [queryClient],
  );

  /** Sends the waiting deletion now, if there is one. */
  const flush = useCallback(
    (leaving: boolean) => {
      const waiting = pending.current;
      if (!waiting) return;
      clearTimeout(waiting.timer);
      pending.current = null;
      setNotice(null);
      send(waiting.ids, leaving);
    },
    [send],
  );

  const remove = useCallback(
    (ids: number[]) => {
      if (ids.length === 0) return;
      flush(false);
      setHidden((current) => new Set([...current, ...ids]));
      pending.current = { ids, timer: setTimeout(() => flush(false), UNDO_DELETE_MS) };
      setNotice({ count: ids.length, at: Date.now() });
    },
    [flush],
  );

  const undo = useCallback(() => {
    const waiting = pending.current;
    if (!waiting) return;
    clearTimeout(waiting.timer);
    pending.current = null;
    setNotice(null);
    setHidden((current) => without(current, waiting.ids));
  }, []);

  useEffect(() => {
    const leave = () => flush(true);
    const hide = () => {
      if (document.visibilityState === 'hidden') flush(true);
    };
    window.addEventListener('pagehide', leave);
    document.addEventListener('visibilitychange', hide);
    return () => {
      window.removeEventListener('pagehide', leave);
      document.removeEventListener('visibilitychange', hide);
      // The inbox is left for another screen of the app: the deletion is sent, not forgotten.
      flush(true);
    };
  }, [flush]);

  return { hidden, notice, remove, undo };
}
