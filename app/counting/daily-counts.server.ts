import { inArray, sql } from 'drizzle-orm'
import { isbot } from 'isbot'
import { db, pgErrorCode } from '~/db/db.server'
import { dailyCounts, partners, workshops } from '~/db/schema'
import { logger } from '~/utils/logger.server'
import { tallinnDay } from '~/utils/time'
import { type CountEvent, type CountKind } from './kinds'

export type { CountEvent }

type Pending = { day: string; kind: CountKind; workshopId: string | null; partnerId: string | null; count: number }

/** How often a process writes what it counted: one statement per interval, whatever the traffic. */
export const FLUSH_INTERVAL_MS = 10_000
// A list page counts one appearance per workshop shown: a bound keeps a flood from holding memory.
const MAX_PENDING_KEYS = 100_000

let pending = new Map<string, Pending>()
let timer: NodeJS.Timeout | undefined
let flushing: Promise<void> | undefined

/**
 * Counts events in this process's memory; they reach `daily_counts` within FLUSH_INTERVAL_MS (and at
 * shutdown). Nothing about the visitor is kept: a day, a kind, a workshop, a partner, a number.
 */
export function countEvents(events: readonly CountEvent[], now = new Date()) {
	if (!events.length) return
	const day = dayOf(now)
	for (const event of events) {
		const workshopId = event.workshopId ?? null
		const partnerId = event.partnerId ?? null
		const key = `${day}|${event.kind}|${workshopId ?? ''}|${partnerId ?? ''}`
		const entry = pending.get(key)
		if (entry) entry.count += 1
		else if (pending.size < MAX_PENDING_KEYS) pending.set(key, { day, kind: event.kind, workshopId, partnerId, count: 1 })
	}
	timer ??= setInterval(() => void flushDailyCounts(), FLUSH_INTERVAL_MS).unref()
}

// Tallinn's day changes at a whole minute (its offset is whole hours): read once a minute, not per
// request (Intl's formatting is the dearest part of counting a page).
let kept = { minute: Number.NaN, day: '' }
function dayOf(now: Date) {
	const minute = Math.floor(now.getTime() / 60_000)
	if (minute !== kept.minute) kept = { minute, day: tallinnDay(now) }
	return kept.day
}

/**
 * Whether a request is a visitor's look at something (decision 0154): not a search engine, link
 * preview or other bot (`isbot`), not a HEAD (a checker asking whether the page is there) and not
 * a prefetch (a browser or framework fetching a page the visitor may open, `Sec-Purpose`/`Purpose`).
 */
export function isVisitorRequest(request: Request): boolean {
	if (request.method === 'HEAD') return false
	const purpose = `${request.headers.get('Sec-Purpose') ?? ''} ${request.headers.get('Purpose') ?? ''}`
	if (/prefetch/i.test(purpose)) return false
	const userAgent = request.headers.get('User-Agent') ?? ''
	return !(userAgent && isbot(userAgent))
}

/** The same for a visitor's request: bots, HEAD requests and prefetches are not counted. */
export function countRequestEvents(request: Request, events: readonly CountEvent[]) {
	if (!events.length || !isVisitorRequest(request)) return
	countEvents(events)
}

/**
 * Writes what this process counted since the last time, adding to the day's rows (one upsert for
 * all of them, or one per 5,000 rows). A failed write keeps nothing back for later: counts are
 * figures, not records.
 */
export function flushDailyCounts(): Promise<void> {
	if (flushing) return flushing.then(() => flushDailyCounts())
	if (!pending.size) return Promise.resolve()
	// In the one order of their keys: two processes adding to the same rows lock them in the same
	// order, so they wait for each other instead of deadlocking.
	const rows = [...pending.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row)
	pending = new Map()
	flushing = writeRows(rows)
		.catch((error: unknown) => logger.warn('daily counts not written', { err: error, rows: rows.length }))
		.finally(() => {
			flushing = undefined
		})
	return flushing
}

/** Rows a statement: five parameters each, well below PostgreSQL's 65,535 a statement. */
const ROWS_PER_STATEMENT = 5_000

async function writeRows(rows: Pending[]) {
	for (let from = 0; from < rows.length; from += ROWS_PER_STATEMENT) {
		const chunk = rows.slice(from, from + ROWS_PER_STATEMENT)
		await upsert(chunk).catch(async (error: unknown) => {
			// A workshop (an erased account) or partner gone since it was counted fails the whole
			// statement on its reference: the others are written without it.
			if (pgErrorCode(error) !== '23503') throw error
			await upsert(await stillThere(chunk))
		})
	}
}

function upsert(rows: Pending[]) {
	if (!rows.length) return Promise.resolve()
	return db
		.insert(dailyCounts)
		.values(rows)
		.onConflictDoUpdate({
			target: [dailyCounts.day, dailyCounts.kind, dailyCounts.workshopId, dailyCounts.partnerId],
			set: { count: sql`${dailyCounts.count} + excluded.count` },
		})
		.then(() => undefined)
}

/** The rows whose workshop and partner (where they have one) still exist. */
async function stillThere(rows: Pending[]): Promise<Pending[]> {
	const workshopIds = [...new Set(rows.flatMap((row) => (row.workshopId ? [row.workshopId] : [])))]
	const partnerIds = [...new Set(rows.flatMap((row) => (row.partnerId ? [row.partnerId] : [])))]
	const [knownWorkshops, knownPartners] = await Promise.all([
		workshopIds.length ? db.select({ id: workshops.id }).from(workshops).where(inArray(workshops.id, workshopIds)) : [],
		partnerIds.length ? db.select({ id: partners.id }).from(partners).where(inArray(partners.id, partnerIds)) : [],
	])
	const workshopSet = new Set(knownWorkshops.map((row) => row.id))
	const partnerSet = new Set(knownPartners.map((row) => row.id))
	return rows.filter((row) => (!row.workshopId || workshopSet.has(row.workshopId)) && (!row.partnerId || partnerSet.has(row.partnerId)))
}

/** Writes what is left and stops the timer (shutdown, tests). */
export async function stopDailyCounts() {
	if (timer) clearInterval(timer)
	timer = undefined
	await flushDailyCounts()
}
