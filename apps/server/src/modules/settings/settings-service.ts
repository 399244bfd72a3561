import { DEFAULT_SYSTEM_SETTINGS, type SystemSettings } from '@youju/contract';
import type { Kysely } from 'kysely';
import { listSettings, saveSetting } from '../../db/repositories/setting-repo.js';
import type { Database } from '../../db/schema.js';

/**
 * System settings, one row per key holding JSON. Read from the database on each use so that every
 * process sees a change at once; the table is tiny.
 */
export function createSettingsService(db: Kysely<Database>) {
  return {
    async get(): Promise<SystemSettings> {
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
    },

    async update(changes: Partial<SystemSettings>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const [key, value] of Object.entries(changes)) {
          if (value === undefined) continue;
          await saveSetting(trx, key, JSON.stringify(value));
        }
      });
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
