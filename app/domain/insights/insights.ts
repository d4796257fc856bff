/**
 * The workshop's growth page (issue 37, decision 0155): its periods, the days and months each
 * covers, and the shape of the figures the page shows. Browser-safe: no imports but types.
 */

/** The periods the page offers, in days: the last 30 and the last 365, today included. */
export const insightPeriods = [30, 365] as const
export type InsightPeriod = (typeof insightPeriods)[number]
export const DEFAULT_PERIOD: InsightPeriod = 30

/** `?period=` as the page reads it: one of the periods, else the default (a view, nothing to refuse). */
export function parsePeriod(value: string | null | undefined): InsightPeriod {
	const days = Number(value)
	return (insightPeriods as readonly number[]).includes(days) ? (days as InsightPeriod) : DEFAULT_PERIOD
}

const DAY_MS = 24 * 60 * 60 * 1000

/** A calendar day ('YYYY-MM-DD') `days` later (earlier when negative). */
export function addDays(day: string, days: number): string {
	return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)
}

/** The Tallinn days a period covers: `today` and the days before it, `period` in all. */
export function periodDays(today: string, period: InsightPeriod): { firstDay: string; lastDay: string } {
	return { firstDay: addDays(today, 1 - period), lastDay: today }
}

/** The calendar months ('YYYY-MM') from the first day's to the last day's, in order. */
export function monthsOf(firstDay: string, lastDay: string): string[] {
	const months: string[] = []
	let [year, month] = firstDay.split('-').map(Number) as [number, number]
	const last = lastDay.slice(0, 7)
	for (;;) {
		const current = `${year}-${String(month).padStart(2, '0')}`
		months.push(current)
		if (current >= last) return months
		month += 1
		if (month > 12) [year, month] = [year + 1, 1]
	}
}

/** Offers won of those decided (chosen or not), 0–1; null while none is decided. */
export function winRate(won: number, decided: number): number | null {
	return decided > 0 ? won / decided : null
}

/** A month's reviews: their count and average (null without any). */
export type RatingMonth = { month: string; reviews: number; average: number | null }

/** What one partner site brought the workshop in the period. */
export type PartnerFigures = { partnerId: string; name: string; profileViews: number; searchAppearances: number; requests: number }

/** What the subscription cost in the period: the invoices' share of it (with VAT), the packages paid for. */
export type PeriodCost = {
	costCents: number
	/** The paid packages' names in the reader's language, in the order paid. */
	packages: string[]
	/** The package the workshop is on now, if any. */
	current: { name: string; free: boolean } | null
}

export type Insights = {
	period: InsightPeriod
	firstDay: string
	lastDay: string
	profileViews: { portal: number; widgets: number; total: number }
	searchAppearances: number
	requestsMatched: number
	offersMade: number
	offersWon: number
	/** Offers made in the period still waiting for the customer's choice (not in the win rate). */
	offersWaiting: number
	winRate: number | null
	/** Completed jobs in the period and the binding totals (VAT included) they were for. */
	jobsCompleted: number
	revenueCents: number
	/** Mean minutes from a request to this workshop's offer, for offers made in the period. */
	responseMinutes: number | null
	/** The period's reviews, all and per month. */
	rating: { reviews: number; average: number | null; months: RatingMonth[] }
	partners: PartnerFigures[]
	cost: PeriodCost
	/** Nothing at all happened in the period: the page says so kindly. */
	empty: boolean
}
