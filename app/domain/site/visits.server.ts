import { createHash } from 'node:crypto'
import { type AppLoadContext } from 'react-router'
import { and, count, eq } from 'drizzle-orm'
import { isbot } from 'isbot'
import { visits } from '~/db/schema'
import { clientIp } from '~/utils/client-ip.server'
import { db } from '~/db/db.server'
import { getSessionSecrets } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'

/**
 * Visit counting (spec §7 `visit-insert`): one row per visitor per day, where a visitor is a
 * salted hash of the day, the address and the browser. The raw address is never stored, and the
 * hash changes every day, so visitors cannot be followed from one day to the next.
 * Days are UTC dates. One address counts at most MAX_VISITORS_PER_ADDRESS visitors a day (a
 * household or an office has a few browsers; a script inventing User-Agents does not inflate
 * the figures).
 */
export const MAX_VISITORS_PER_ADDRESS = 5

const sourceHash = (day: string, ip: string) => visitorHash(day, ip, '')

// Salted with the signing secret: nothing verifies it later, so a rotation only counts that day's
// earlier visitors once more (decision 0142).
export function visitorHash(day: string, ip: string, userAgent: string) {
	return createHash('sha256')
		.update(`${day}\n${ip}\n${userAgent}\n${getSessionSecrets()[0]}`)
		.digest('hex')
}

// Visitors already counted today by this process, so a busy page costs no write per request.
const MAX_REMEMBERED = 50_000
let remembered: { day: string; hashes: Set<string> } = { day: '', hashes: new Set() }

/** Counts this request's visitor once per day; true when it was the first visit of the day. */
export async function countVisit(request: Request, context: AppLoadContext | undefined, now = new Date()): Promise<boolean> {
	const userAgent = request.headers.get('User-Agent') ?? ''
	// Search engines and link previews are not visitors.
	if (userAgent && isbot(userAgent)) return false
	const day = now.toISOString().slice(0, 10)
	const hash = visitorHash(day, clientIp(context), userAgent)
	if (remembered.day !== day || remembered.hashes.size >= MAX_REMEMBERED) remembered = { day, hashes: new Set() }
	if (remembered.hashes.has(hash)) return false
	remembered.hashes.add(hash)
	const source = sourceHash(day, clientIp(context))
	const [seen] = await db
		.select({ n: count() })
		.from(visits)
		.where(and(eq(visits.day, day), eq(visits.sourceHash, source)))
	if ((seen?.n ?? 0) >= MAX_VISITORS_PER_ADDRESS) return false
	const inserted = await db
		.insert(visits)
		.values({ day, visitorHash: hash, sourceHash: source })
		.onConflictDoNothing()
		.returning({ day: visits.day })
	return inserted.length > 0
}

/** The same, without making the page wait for it or fail because of it. */
export function countVisitInBackground(request: Request, context: AppLoadContext | undefined) {
	countVisit(request, context).catch((error: unknown) => {
		logger.warn('visit not counted', { err: error })
	})
}

/** Forgets which visitors this process has seen (tests). */
export function forgetCountedVisits() {
	remembered = { day: '', hashes: new Set() }
}
