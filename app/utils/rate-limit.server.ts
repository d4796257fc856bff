import { lt, sql } from 'drizzle-orm'
import { rateLimits } from '~/db/schema'
import { db, queryRows } from './db.server'

export type RateLimitRule = { limit: number; windowSeconds: number }

/** The limits of the forms that attract abuse (per IP and, where there is one, per account). */
export const rateLimitRules = {
	loginPerIp: { limit: 20, windowSeconds: 15 * 60 },
	loginPerAccount: { limit: 10, windowSeconds: 15 * 60 },
	registerPerIp: { limit: 10, windowSeconds: 60 * 60 },
	resetPerIp: { limit: 10, windowSeconds: 60 * 60 },
	resetPerAccount: { limit: 3, windowSeconds: 60 * 60 },
	resetFormPerIp: { limit: 20, windowSeconds: 15 * 60 },
	contactPerIp: { limit: 5, windowSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>

/**
 * Counts one attempt against `key` in a fixed window shared by every process (one atomic
 * statement), and says whether it is still within the limit.
 */
export async function hitRateLimit(
	key: string,
	rule: RateLimitRule,
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
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
	return { allowed: (row?.hits ?? 0) <= rule.limit, retryAfterSeconds: Math.max(0, row?.retry_after ?? 0) }
}

/** Forgets a key (after a successful login the account's failures no longer count). */
export async function clearRateLimit(key: string) {
	await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`)
}

export async function deleteExpiredRateLimits() {
	await db.delete(rateLimits).where(lt(rateLimits.windowEndsAt, sql`now() - interval '1 hour'`))
}

/** Whether a key is over its limit now, without counting an attempt. */
export async function isRateLimited(key: string, rule: RateLimitRule): Promise<{ limited: boolean; retryAfterSeconds: number }> {
	const [row] = await queryRows<{ hits: number; retry_after: number }>(
		db,
		sql`select hits, ceil(extract(epoch from window_ends_at - now()))::int as retry_after
		    from ${rateLimits} where key = ${key} and window_ends_at > now()`,
	)
	return { limited: Boolean(row && row.hits >= rule.limit), retryAfterSeconds: Math.max(0, row?.retry_after ?? 0) }
}
