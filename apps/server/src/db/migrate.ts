import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import type { Engine } from './database.js';
import * as initial from './migrations/001_initial.js';
import * as mail from './migrations/002_mail.js';
import * as domainDns from './migrations/005_domain_dns.js';
import * as business from './migrations/010_business.js';
import * as sending from './migrations/015_sending.js';
import * as operations from './migrations/020_operations.js';
import * as mailSearch from './migrations/025_mail_search.js';
import * as deliveryReports from './migrations/030_delivery_reports.js';
import * as rateLimits from './migrations/035_rate_limits.js';
import * as ownershipAndAbuse from './migrations/040_ownership_and_abuse.js';
import * as deferredSearchIndex from './migrations/046_deferred_search_index.js';
import * as inboxIndexes from './migrations/047_inbox_indexes.js';
import * as searchIndexWithoutPositions from './migrations/048_search_index_without_positions.js';
import * as messageCode from './migrations/049_message_code.js';
import * as mailFolders from './migrations/050_mail_folders.js';
import * as webhooks from './migrations/051_webhooks.js';
import * as messageAuth from './migrations/052_message_auth.js';
import * as mailForwarding from './migrations/053_mail_forwarding.js';
import * as acmeChallenges from './migrations/054_acme_challenges.js';
import * as mailboxGeneratedPassword from './migrations/055_mailbox_generated_password.js';
import * as bigramSearchIndex from './migrations/056_bigram_search_index.js';
import * as inboxFolderIndex from './migrations/057_inbox_folder_index.js';
import * as storeAndOrderEvents from './migrations/058_store_and_order_events.js';
import * as messageOwner from './migrations/059_message_owner.js';

/**
 * Numbered migrations, applied in order on start (see README.md beside this file). Each module
 * exports `up(db, engine)`; the engine lets a migration pick a column type where SQL dialects
 * differ.
 */
const migrations: Record<string, (engine: Engine) => Migration> = {
  '001_initial': (engine) => ({ up: (db) => initial.up(db, engine) }),
  '002_mail': (engine) => ({ up: (db) => mail.up(db, engine) }),
  '005_domain_dns': (engine) => ({ up: (db) => domainDns.up(db, engine) }),
  '010_business': (engine) => ({ up: (db) => business.up(db, engine) }),
  '015_sending': (engine) => ({ up: (db) => sending.up(db, engine) }),
  '020_operations': (engine) => ({ up: (db) => operations.up(db, engine) }),
  '025_mail_search': (engine) => ({ up: (db) => mailSearch.up(db, engine) }),
  '030_delivery_reports': (engine) => ({ up: (db) => deliveryReports.up(db, engine) }),
  '035_rate_limits': (engine) => ({ up: (db) => rateLimits.up(db, engine) }),
  '040_ownership_and_abuse': (engine) => ({ up: (db) => ownershipAndAbuse.up(db, engine) }),
  '046_deferred_search_index': (engine) => ({ up: (db) => deferredSearchIndex.up(db, engine) }),
  '047_inbox_indexes': (engine) => ({ up: (db) => inboxIndexes.up(db, engine) }),
  '048_search_index_without_positions': (engine) => ({
    up: (db) => searchIndexWithoutPositions.up(db, engine),
  }),
  '049_message_code': () => ({ up: (db) => messageCode.up(db) }),
  '050_mail_folders': (engine) => ({ up: (db) => mailFolders.up(db, engine) }),
  '051_webhooks': (engine) => ({ up: (db) => webhooks.up(db, engine) }),
  '052_message_auth': () => ({ up: (db) => messageAuth.up(db) }),
  '053_mail_forwarding': (engine) => ({ up: (db) => mailForwarding.up(db, engine) }),
  '054_acme_challenges': (engine) => ({ up: (db) => acmeChallenges.up(db, engine) }),
  '055_mailbox_generated_password': () => ({ up: (db) => mailboxGeneratedPassword.up(db) }),
  '056_bigram_search_index': (engine) => ({ up: (db) => bigramSearchIndex.up(db, engine) }),
  '057_inbox_folder_index': (engine) => ({ up: (db) => inboxFolderIndex.up(db, engine) }),
  '058_store_and_order_events': () => ({ up: (db) => storeAndOrderEvents.up(db) }),
  '059_message_owner': (engine) => ({ up: (db) => messageOwner.up(db, engine) }),
};

export const SCHEMA_VERSION = Object.keys(migrations).length;

/**
 * Applies the migrations not yet applied; with `only`, just those of its names (a restore first
 * rebuilds the schema a backup was taken with, loads it, then applies the rest).
 */
export async function migrate(db: Kysely<unknown>, engine: Engine, only?: readonly string[]): Promise<void> {
  const migrator = new Migrator({
    db,
    // A migration merged from a parallel branch may carry a lower number than one a development
    // database already applied; apply it anyway (README.md rule 5).
    allowUnorderedMigrations: true,
    provider: {
      getMigrations: async () =>
        Object.fromEntries(
          Object.entries(migrations)
            .filter(([name]) => !only || only.includes(name))
            .map(([name, make]) => [name, make(engine)]),
        ),
    },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`数据库迁移失败（${failed?.migrationName ?? '未知'}）：${String(error)}`);
  }
}

/** The names of the migrations this version applies, in order. */
export function migrationNames(): string[] {
  return Object.keys(migrations).sort();
}

/** The migrations a database has applied (Kysely's `kysely_migration`), none for a new database. */
export async function appliedMigrations(db: Kysely<unknown>): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    return rows.map((row) => row.name);
  } catch {
    return [];
  }
}
