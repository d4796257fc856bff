/**
 * The nightly job `price-ranges` (issue 35, docs/decisions/0148): the usual prices recomputed from
 * the completed jobs in the night's quiet hour, and at a process's start while there are none yet
 * (a new install, the demo on the embedded database), so a range shows before the first night.
 */
import { sql } from 'drizzle-orm'
import { db, queryRows } from '~/db/db.server'
import { logger } from '~/utils/logger.server'
import { forgetPricePages } from './price-pages.server'
import { recomputePriceRanges } from './price-ranges.server'

export const PRICE_RANGES_JOB = 'price-ranges'
/** Tallinn's clock: after the day's last jobs are completed, before anyone looks. */
export const PRICE_RANGES_AT = '03:15'

/** Whether the table of ranges is empty: the job then runs at start too. */
export async function noPriceRangesYet(): Promise<boolean> {
	const [row] = await queryRows<{ found: boolean }>(db, sql`select exists (select 1 from price_ranges) as found`)
	return !row?.found
}

/** The job's run: every range recomputed in one transaction; how many there are and how long it took, logged. */
export async function refreshPriceRanges(now = new Date()) {
	const started = performance.now()
	const ranges = await recomputePriceRanges(now)
	await forgetPricePages()
	const ms = Math.round(performance.now() - started)
	logger.info('price ranges recomputed', { ranges, ms })
	return { ranges, ms }
}
