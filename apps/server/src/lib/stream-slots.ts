/**
 * Caps on long-lived requests (server-sent event streams, long polls): each one holds a socket and a
 * file descriptor for minutes, so without caps one token or one address could open thousands and
 * take the process's descriptors from everyone. Counted per credential, per source address and in
 * all; in this process, which is where descriptors are spent.
 */
export interface StreamLimits {
  perCredential: number;
  perSource: number;
  total: number;
}

export type SlotRefusal = 'credential' | 'source' | 'total';

export function createStreamSlots(limits: StreamLimits) {
  const byCredential = new Map<string, number>();
  const bySource = new Map<string, number>();
  let total = 0;

  const take = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  const give = (map: Map<string, number>, key: string) => {
    const left = (map.get(key) ?? 1) - 1;
    if (left > 0) map.set(key, left);
    else map.delete(key);
  };

  return {
    /** Takes a slot (synchronously: no two requests can pass a cap together), or says which cap is full. */
    acquire(credential: string, source: string): { release: () => void } | { refused: SlotRefusal } {
      if ((byCredential.get(credential) ?? 0) >= limits.perCredential) return { refused: 'credential' };
      if ((bySource.get(source) ?? 0) >= limits.perSource) return { refused: 'source' };
      if (total >= limits.total) return { refused: 'total' };
      take(byCredential, credential);
      take(bySource, source);
      total++;
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          give(byCredential, credential);
          give(bySource, source);
          total--;
        },
      };
    },
    get open(): number {
      return total;
    },
  };
}
