import { DEFAULT_SYSTEM_SETTINGS, type SystemSettings } from '@youju/contract';
import type { Kysely } from 'kysely';
import { listSettings, saveSetting } from '../../db/repositories/setting-repo.js';
import type { Database } from '../../db/schema.js';
import type { EventTransport } from '../../lib/event-transport.js';

/** The event channel telling every process that the system settings changed (see `EVENT_CHANNELS`). */
export const SETTINGS_CHANNEL = 'settings';

/**
 * How long one reading of the settings is reused when nothing said they changed: the bound on how
 * stale a process can be if a change's event is lost (an event transport gives no guarantee).
 */
const REUSE_MS = 1_000;

/**
 * System settings, one row per key holding JSON.
 *
 * Without `changes` (the store worker, which reads them only on rare paths) they are read from the
 * database on each use. With `changes` (the process's event transport) a reading is reused: the
 * SMTP listener alone asks three times for every message (the size limit at MAIL FROM and at DATA,
 * the firewall's allow list), which read and parsed every row each time. An update made here drops
 * the reading at once, and tells the other processes of the deployment (PostgreSQL NOTIFY, Redis),
 * which drop theirs; should that word be lost, a reading is at most `REUSE_MS` old.
 */
export function createSettingsService(db: Kysely<Database>, options: { changes?: EventTransport } = {}) {
  const { changes } = options;
  let reading: { settings: Promise<SystemSettings>; at: number } | null = null;
  changes?.subscribe(SETTINGS_CHANNEL, () => {
    reading = null;
  });

  async function read(): Promise<SystemSettings> {
    const rows = await listSettings(db);
    const stored: Record<string, unknown> = {};
    for (const row of rows) {
      try {
        stored[row.key] = JSON.parse(row.value);
      } catch {
        // A corrupt value falls back to the default rather than breaking every page.
      }
    }
    const settings = { ...DEFAULT_SYSTEM_SETTINGS };
    for (const key of Object.keys(settings) as (keyof SystemSettings)[]) {
      if (key in stored) (settings as Record<string, unknown>)[key] = stored[key];
    }
    return settings;
  }

  /** A copy the caller may change: the reading itself stays as read (its lists are copied too). */
  function copyOf(settings: SystemSettings): SystemSettings {
    const copy = { ...settings };
    for (const [key, value] of Object.entries(copy))
      if (Array.isArray(value)) (copy as Record<string, unknown>)[key] = [...value];
    return copy;
  }

  return {
    async get(): Promise<SystemSettings> {
      if (!changes) return read();
      const now = Date.now();
      if (!reading || now - reading.at >= REUSE_MS) {
        const current = { settings: read(), at: now };
        reading = current;
        // A failed reading is not reused.
        current.settings.catch(() => {
          if (reading === current) reading = null;
        });
      }
      return copyOf(await reading.settings);
    },

    async update(changed: Partial<SystemSettings>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const [key, value] of Object.entries(changed)) {
          if (value === undefined) continue;
          await saveSetting(trx, key, JSON.stringify(value));
        }
        // PostgreSQL delivers a NOTIFY on commit; the other transports are told after it.
        if (changes?.publishesInTransaction) await changes.publish(SETTINGS_CHANNEL, '', trx);
      });
      reading = null;
      if (changes && !changes.publishesInTransaction) changes.publish(SETTINGS_CHANNEL, '').catch(() => {});
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
