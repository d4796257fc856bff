import { and, eq, sql } from 'drizzle-orm'
import { type DbOrTx, db, queryRows } from '~/db/db.server'
import { workshops } from '~/db/schema'
import { logger } from '~/utils/logger.server'
import { bookingSettings, freeTimes } from './calendar.server'
import { SHOWN_FREE_TIMES } from './free-times'

/**
 * A workshop's next free times on public pages (issue 33, item 7), computed from its calendar for a
 * typical job (the site's `booking_typical_minutes`), and the job that keeps `workshops.next_free_at`
 * true for the directory's cards and its "free this week" filter.
 */

/** The next free start times of a workshop for a typical job, soonest first (its page, the details widget). */
export async function nextFreeTimes(workshopId: string, options: { now?: Date; limit?: number } = {}, database: DbOrTx = db): Promise<Date[]> {
	const { typicalMinutes } = await bookingSettings(database)
	const starts = await freeTimes(workshopId, { durationMinutes: typicalMinutes, now: options.now, limit: options.limit ?? SHOWN_FREE_TIMES }, database)
	return starts.map((start) => start.startsAt)
}

/** The job's name (app/jobs/schedule.server.ts). */
export const NEXT_FREE_JOB = 'next-free-times'
/** How many workshops one run of the refresh job computes at most. */
export const NEXT_FREE_BATCH = 500
/** A next free time this close (or past) is computed again: by then it may be too soon to book. */
const SOON_MS = 60 * 60_000
/** A workshop with no free time in its window is looked at again after this (a new day enters the window). */
const NONE_FREE_RECHECK_MS = 60 * 60_000

/**
 * The job `next-free-times` (every 15 minutes): computes `next_free_at` again for the workshops
 * that need it, at most `limit` a run, the longest unchecked first: never computed (the first fill
 * after migration 0037), past or within the next hour, or none free and not looked at for an hour.
 * Bookings, changes and cancellations refresh their workshop after commit (refreshNextFree); this
 * moves the rest forward as time passes. `due`: how many it took (a full batch: more may be waiting).
 */
export async function refreshDueNextFree(options: { now?: Date; limit?: number } = {}, database: DbOrTx = db) {
	const now = options.now ?? new Date()
	const due = await queryRows<{ id: string; checked: string | null }>(
		database,
		sql`select w.id, w.next_free_checked_at::text as checked from workshops w
		    where w.next_free_checked_at is null
		       or w.next_free_at < ${new Date(now.getTime() + SOON_MS).toISOString()}::timestamptz
		       or (w.next_free_at is null and w.next_free_checked_at < ${new Date(now.getTime() - NONE_FREE_RECHECK_MS).toISOString()}::timestamptz)
		    order by w.next_free_checked_at asc nulls first, w.id
		    limit ${options.limit ?? NEXT_FREE_BATCH}`,
	)
	if (!due.length) return { due: 0, refreshed: 0 }
	const { typicalMinutes } = await bookingSettings(database)
	let refreshed = 0
	for (const { id, checked } of due) {
		try {
			const [next] = await freeTimes(id, { durationMinutes: typicalMinutes, now, limit: 1 }, database)
			// Only if nobody refreshed it meanwhile: a booking that committed after this read refreshed it
			// after its commit (refreshNextFree), and that answer is the newer one.
			await database
				.update(workshops)
				.set({ nextFreeAt: next?.startsAt ?? null, nextFreeCheckedAt: now })
				.where(and(eq(workshops.id, id), sql`${workshops.nextFreeCheckedAt} is not distinct from ${checked}::timestamptz`))
			refreshed++
		} catch (error) {
			// One workshop's bad calendar must not stop the others; it is tried again next run.
			logger.error('next free time not refreshed', { workshopId: id, err: error })
		}
	}
	return { due: due.length, refreshed }
}
