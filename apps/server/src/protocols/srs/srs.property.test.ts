import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSrs0LocalPart, SRS_MAX_AGE_DAYS, SrsError, srsForward, srsReverse } from './srs.js';

const DAY = 86_400_000;
const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);
const domain = fc.array(label, { minLength: 2, maxLength: 4 }).map((labels) => labels.join('.'));
/** Local parts as senders use them, '=' and '+' included (they must survive the round trip). */
const local = fc.stringMatching(/^[A-Za-z0-9._+=-]{1,40}$/);
const secret = fc.string({ minLength: 8, maxLength: 40 });
/** Any moment in a few centuries: the day counter wraps every 1024 days. */
const now = fc.integer({ min: 0, max: 10_000 * DAY });

function localOf(address: string): string {
  return address.slice(0, address.lastIndexOf('@'));
}

function reasonOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(SrsError);
    return (error as SrsError).reason;
  }
}

describe('SRS0', () => {
  it('reverses what it wrote, on the same day and up to the maximum age, in any letter case', () => {
    fc.assert(
      fc.property(
        local,
        domain,
        domain,
        secret,
        now,
        fc.integer({ min: 0, max: SRS_MAX_AGE_DAYS }),
        (user, origin, forwarder, key, at, age) => {
          const rewritten = srsForward(`${user}@${origin}`, forwarder, key, at);
          expect(rewritten.endsWith(`@${forwarder}`)).toBe(true);
          expect(isSrs0LocalPart(localOf(rewritten))).toBe(true);
          expect(srsReverse(localOf(rewritten), key, at + age * DAY)).toEqual({
            local: user,
            domain: origin,
          });
          // An MTA that folds the case of the local part must not break it (the hash is base32).
          const folded = srsReverse(localOf(rewritten).toLowerCase(), key, at);
          expect(folded.domain).toBe(origin);
          expect(folded.local.toLowerCase()).toBe(user.toLowerCase());
        },
      ),
    );
  });

  it('refuses an address with any one character of hash, time, domain or local part changed', () => {
    fc.assert(
      fc.property(local, domain, secret, now, fc.nat(), fc.nat(), (user, origin, key, at, where, pick) => {
        const srsLocal = localOf(srsForward(`${user}@${origin}`, 'fwd.example', key, at));
        // After "SRS0=": every character but the '=' separators.
        const positions = [...srsLocal].map((_, i) => i).filter((i) => i >= 5 && srsLocal[i] !== '=');
        const index = positions[where % positions.length] ?? 5;
        const original = srsLocal[index] ?? '';
        const replacements = 'ABCXYZ234qrs9'
          .split('')
          .filter((c) => c.toLowerCase() !== original.toLowerCase());
        const changed = `${srsLocal.slice(0, index)}${replacements[pick % replacements.length]}${srsLocal.slice(index + 1)}`;
        expect(['hash', 'syntax', 'expired']).toContain(reasonOf(() => srsReverse(changed, key, at)));
      }),
    );
  });

  it('refuses an address made with another secret', () => {
    fc.assert(
      fc.property(local, domain, secret, secret, now, (user, origin, key, other, at) => {
        fc.pre(key !== other);
        const srsLocal = localOf(srsForward(`${user}@${origin}`, 'fwd.example', key, at));
        expect(reasonOf(() => srsReverse(srsLocal, other, at))).toBe('hash');
      }),
    );
  });

  it('expires after the maximum age, and refuses timestamps from the future', () => {
    fc.assert(
      fc.property(
        local,
        domain,
        secret,
        now,
        fc.integer({ min: SRS_MAX_AGE_DAYS + 1, max: 1000 }),
        (user, origin, key, at, age) => {
          const srsLocal = localOf(srsForward(`${user}@${origin}`, 'fwd.example', key, at));
          // `age` days later, and `1024 - age` days earlier (the counter wraps: "the future").
          expect(reasonOf(() => srsReverse(srsLocal, key, at + age * DAY))).toBe('expired');
          expect(reasonOf(() => srsReverse(srsLocal, key, at - (1024 - age) * DAY + 1024 * DAY * 4))).toBe(
            'expired',
          );
        },
      ),
    );
  });

  it('never throws anything but SrsError on arbitrary local parts', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string().map((s) => `SRS0=${s}`),
        ),
        secret,
        now,
        (text, key, at) => {
          const reason = reasonOf(() => srsReverse(text, key, at));
          if (!isSrs0LocalPart(text)) expect(reason).toBe('not-srs');
        },
      ),
    );
  });

  it('writes the documented form', () => {
    const at = Date.UTC(2026, 10, 27);
    const address = srsForward('alice=x@origin.example', 'fwd.example', 'secret', at);
    expect(address).toMatch(/^SRS0=[A-Z2-7]{8}=[A-Z2-7]{2}=origin\.example=alice=x@fwd\.example$/);
    expect(() => srsForward('no-domain', 'fwd.example', 'secret', at)).toThrow(SrsError);
    expect(reasonOf(() => srsReverse('SRS0=abc', 'secret', at))).toBe('syntax');
  });
});
