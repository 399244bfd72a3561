// The architecture checker against small trees that break each rule once, and one that keeps them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkArchitecture } from './lint-architecture.mjs';

let root;
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A tree of `path → source` under a fresh temporary root; returns the rule names reported. */
function rulesFor(files) {
  root = mkdtempSync(join(tmpdir(), 'youju-architecture-'));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), source);
  }
  return checkArchitecture(root)
    .map((line) => line.split(' ')[1].replace(/:$/, ''))
    .sort();
}

const server = 'apps/server/src';
const web = 'apps/web/src';

describe('architecture rules', () => {
  it('accepts a tree that keeps every rule', () => {
    expect(
      rulesFor({
        [`${server}/protocols/smtp/reply.ts`]: "import { x } from '../dns/wire.js';\nexport const y = x;\n",
        [`${server}/protocols/dns/wire.ts`]: 'export const x = 1;\n',
        [`${server}/db/repositories/domain-repo.ts`]:
          "export const f = (db) => db.selectFrom('domains').innerJoin('mailboxes', 'a', 'b');\n",
        [`${server}/modules/mail/index.ts`]: "export { g } from './mail-service.js';\n",
        [`${server}/modules/mail/mail-service.ts`]:
          "import { f } from '../../db/repositories/domain-repo.js';\nexport const g = f;\n",
        [`${server}/modules/cards/card-service.ts`]:
          "import { g } from '../mail/index.js';\nexport const h = g;\n",
        [`${server}/modules/cards/card-routes.ts`]: "import { a } from '../../plugins/authentication.js';\n",
        [`${web}/lib/http/index.ts`]: "export const get = () => fetch('/api');\n",
        [`${web}/features/mail/api/inbox.ts`]: "import { get } from '@/lib/http';\nexport const i = get;\n",
      }),
    ).toEqual([]);
  });

  it('refuses a protocol that imports a feature', () => {
    expect(
      rulesFor({
        [`${server}/protocols/smtp/reply.ts`]: "import { g } from '../../modules/mail/index.js';\n",
        [`${server}/modules/mail/index.ts`]: 'export const g = 1;\n',
      }),
    ).toEqual(['protocol-imports-feature']);
  });

  it('refuses a query built outside the database layer, and a table queried outside its owner', () => {
    expect(
      rulesFor({
        [`${server}/modules/mail/mail-service.ts`]: "export const f = (db) => db.selectFrom('messages');\n",
        [`${server}/modules/mail/raw.ts`]: "import { sql } from 'kysely';\nexport const q = sql`select 1`;\n",
        [`${server}/db/repositories/domain-repo.ts`]:
          "export const f = (db) => db.updateTable('mailboxes');\n",
      }),
    ).toEqual(['query-outside-repository', 'query-outside-repository', 'table-owner']);
  });

  it("refuses another module's internals, the listener from a module, and plugins outside routes", () => {
    expect(
      rulesFor({
        [`${server}/modules/mail/mail-service.ts`]: 'export const g = 1;\n',
        [`${server}/modules/cards/card-service.ts`]:
          "import { g } from '../mail/mail-service.js';\nimport { s } from '../../smtp/smtp-server.js';\nimport { a } from '../../plugins/authentication.js';\n",
        [`${server}/smtp/smtp-server.ts`]: 'export const s = 1;\n',
        [`${server}/plugins/authentication.ts`]: 'export const a = 1;\n',
      }),
    ).toEqual(['layer', 'layer', 'module-internals']);
  });

  it('refuses import cycles between files and between modules', () => {
    expect(
      rulesFor({
        [`${server}/lib/a.ts`]: "import { b } from './b.js';\nexport const a = b;\n",
        [`${server}/lib/b.ts`]: "import { a } from './a.js';\nexport const b = a;\n",
        [`${server}/modules/mail/index.ts`]: "import { c } from '../cards/index.js';\nexport const m = c;\n",
        [`${server}/modules/mail/other.ts`]: 'export const o = 1;\n',
        [`${server}/modules/cards/index.ts`]: "export { c } from './c.js';\n",
        [`${server}/modules/cards/c.ts`]: "import { o } from '../mail/index.js';\nexport const c = o;\n",
      }),
    ).toEqual(['import-cycle', 'import-cycle', 'module-cycle']);
  });

  it('refuses web features importing each other and HTTP outside lib/http', () => {
    expect(
      rulesFor({
        [`${web}/features/mail/api/inbox.ts`]:
          "import { d } from '@/features/domains/api/domains';\nexport const i = d;\n",
        [`${web}/features/domains/api/domains.ts`]:
          "export const d = () => new EventSource('/api/events');\n",
      }),
    ).toEqual(['feature-imports-feature', 'http-outside-lib-http']);
  });
});
