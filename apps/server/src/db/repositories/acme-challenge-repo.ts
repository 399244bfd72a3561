import type { Queryable } from './queryable.js';

/** Stores (or replaces) a pending HTTP-01 challenge until `expiresAt` (migration 054). */
export async function putAcmeChallenge(
  db: Queryable,
  challenge: { token: string; keyAuthorization: string; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('acme_challenges')
    .values({
      token: challenge.token,
      key_authorization: challenge.keyAuthorization,
      expires_at: challenge.expiresAt,
    })
    .onConflict((conflict) =>
      conflict.column('token').doUpdateSet({
        key_authorization: challenge.keyAuthorization,
        expires_at: challenge.expiresAt,
      }),
    )
    .execute();
}

/** The key authorization of a challenge that has not expired, or null. */
export async function findAcmeChallenge(db: Queryable, token: string, now: number): Promise<string | null> {
  const row = await db
    .selectFrom('acme_challenges')
    .select('key_authorization')
    .where('token', '=', token)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.key_authorization ?? null;
}

/** Removes one challenge (its order is over) and any that expired (an order cut short by a crash). */
export async function deleteAcmeChallenge(db: Queryable, token: string, now: number): Promise<void> {
  await db
    .deleteFrom('acme_challenges')
    .where((eb) => eb.or([eb('token', '=', token), eb('expires_at', '<', now)]))
    .execute();
}
