import { lt, sql } from 'drizzle-orm'
import { rateLimits } from '~/db/schema'
import { db, queryRows } from '~/db/db.server'

export type RateLimitRule = { limit: number; windowSeconds: number }

/**
 * The limits of the forms that attract abuse. Sign-in counts failed attempts only: per address and
 * account together (a guesser at one address stops; the owner elsewhere is not locked out), per
 * address across accounts (one address trying many accounts), and per account from anywhere, which
 * never refuses but slows every attempt down (docs/decisions/0074-sign-in-limits.md).
 */
export const rateLimitRules = {
	loginFailuresPerAccountAndIp: { limit: 10, windowSeconds: 15 * 60 },
	loginFailuresPerIp: { limit: 50, windowSeconds: 15 * 60 },
	loginFailuresPerAccount: { limit: 10, windowSeconds: 15 * 60 },
	registerPerIp: { limit: 10, windowSeconds: 60 * 60 },
	resetPerIp: { limit: 10, windowSeconds: 60 * 60 },
	resetPerAccount: { limit: 3, windowSeconds: 60 * 60 },
	resetFormPerIp: { limit: 20, windowSeconds: 15 * 60 },
	contactPerIp: { limit: 5, windowSeconds: 60 * 60 },
	/** Passkey ceremonies begun from one address (a challenge each; a human begins a few). */
	passkeyChallengesPerIp: { limit: 60, windowSeconds: 15 * 60 },
	/** Failed passkey sign-ins from one address. */
	passkeyFailuresPerIp: { limit: 20, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimitRule>

/**
 * Counts one attempt against `key` in a fixed window shared by every process (one atomic
 * statement), and says whether it is still within the limit.
 */
export async function hitRateLimit(
	key: string,
	rule: RateLimitRule,
): Promise<{ allowed: boolean; hits: number; retryAfterSeconds: number }> {
	const [row] = await queryRows<{ hits: number; retry_after: number }>(
		db,
		sql`insert into ${rateLimits} (key, hits, window_ends_at)
		    values (${key}, 1, now() + make_interval(secs => ${rule.windowSeconds}))
		    on conflict (key) do update set
		      hits = case when ${rateLimits.windowEndsAt} <= now() then 1 else ${rateLimits.hits} + 1 end,
		      window_ends_at = case when ${rateLimits.windowEndsAt} <= now()
		                            then now() + make_interval(secs => ${rule.windowSeconds})
		                            else ${rateLimits.windowEndsAt} end
		    returning hits, ceil(extract(epoch from window_ends_at - now()))::int as retry_after`,
	)
	return { allowed: (row?.hits ?? 0) <= rule.limit, hits: row?.hits ?? 0, retryAfterSeconds: Math.max(0, row?.retry_after ?? 0) }
}

/** How many attempts `key` has counted in its window now, without counting one (0 when none or its window is over). */
export async function hitsSoFar(key: string): Promise<number> {
	const [row] = await queryRows<{ hits: number }>(db, sql`select hits from ${rateLimits} where key = ${key} and window_ends_at > now()`)
	return row?.hits ?? 0
}

/** Takes one counted attempt back (it turned out to be a success, which does not count). */
export async function undoRateLimitHit(key: string) {
	await db.execute(sql`update ${rateLimits} set hits = greatest(hits - 1, 0) where key = ${key}`)
}

/**
 * Spreads attempts on one key out in time, across every process: each takes the next free turn,
 * `spacingMs` after the one before. Answers how long to wait for it; a turn further away than
 * `maxWaitMs` is not taken (ok: false, with the wait it would have had).
 */
export async function reserveTurn(key: string, spacingMs: number, maxWaitMs: number): Promise<{ ok: boolean; waitMs: number }> {
	const spacing = spacingMs / 1000
	const [row] = await queryRows<{ wait_ms: number }>(
		db,
		sql`insert into ${rateLimits} (key, hits, window_ends_at) values (${key}, 1, now() + make_interval(secs => ${spacing}))
		    on conflict (key) do update set
		      hits = ${rateLimits.hits} + 1,
		      window_ends_at = greatest(${rateLimits.windowEndsAt}, now()) + make_interval(secs => ${spacing})
		    returning greatest(0, extract(epoch from window_ends_at - now()) * 1000 - ${spacingMs})::int as wait_ms`,
	)
	const waitMs = row?.wait_ms ?? 0
	if (waitMs <= maxWaitMs) return { ok: true, waitMs }
	await db.execute(sql`update ${rateLimits} set window_ends_at = window_ends_at - make_interval(secs => ${spacing}) where key = ${key}`)
	return { ok: false, waitMs }
}

/** Forgets a key (after a successful login the account's failures no longer count). */
export async function clearRateLimit(key: string) {
	await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`)
}

export async function deleteExpiredRateLimits() {
	await db.delete(rateLimits).where(lt(rateLimits.windowEndsAt, sql`now() - interval '1 hour'`))
}

