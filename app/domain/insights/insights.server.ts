import { type Language } from '~/i18n/config'
import { subscriptionCost } from '~/domain/billing/period-cost.server'
import { tallinnDay, tallinnToDate } from '~/utils/time'
import { countFigures, jobFigures, keptRequestsMatched, offerFigures, ratingFigures } from './figures.server'
import { monthsOf, periodDays, winRate, type InsightPeriod, type Insights } from './insights'

/**
 * What the subscription brought a workshop over the last 30 or 365 Tallinn days (issue 37, decision
 * 0155): who saw it (daily counts), what reached it and what it won (requests, offers, jobs), how
 * customers rated it month by month, what partner sites sent, and what its package cost meanwhile.
 * Only this workshop's rows: every query starts with its id.
 */
export async function workshopInsights(workshopId: string, period: InsightPeriod, language: Language, now = new Date()): Promise<Insights> {
	const today = tallinnDay(now)
	const { firstDay, lastDay } = periodDays(today, period)
	const [counts, offers, jobs, ratingMonths, requestsMatched, cost] = await Promise.all([
		countFigures(workshopId, firstDay, lastDay),
		offerFigures(workshopId, firstDay),
		jobFigures(workshopId, firstDay),
		ratingFigures(workshopId, firstDay),
		keptRequestsMatched(workshopId, firstDay, today),
		subscriptionCost(workshopId, tallinnToDate(`${firstDay}T00:00`), now, language),
	])
	const byMonth = new Map(ratingMonths.map((month) => [month.month, month]))
	const reviews = ratingMonths.reduce((sum, month) => sum + month.reviews, 0)
	const ratingSum = ratingMonths.reduce((sum, month) => sum + (month.average ?? 0) * month.reviews, 0)
	const insights: Omit<Insights, 'empty'> = {
		period,
		firstDay,
		lastDay,
		profileViews: { portal: counts.portalViews, widgets: counts.widgetViews, total: counts.portalViews + counts.widgetViews },
		searchAppearances: counts.searchAppearances,
		requestsMatched,
		offersMade: offers.made,
		offersWon: offers.won,
		offersWaiting: offers.waiting,
		winRate: winRate(offers.won, offers.made - offers.waiting),
		jobsCompleted: jobs.jobs,
		revenueCents: jobs.revenueCents,
		responseMinutes: offers.responseMinutes,
		rating: {
			reviews,
			average: reviews ? ratingSum / reviews : null,
			months: monthsOf(firstDay, lastDay).map((month) => byMonth.get(month) ?? { month, reviews: 0, average: null }),
		},
		partners: counts.partners,
		cost,
	}
	const empty =
		insights.profileViews.total + insights.searchAppearances + requestsMatched + offers.made + jobs.jobs + reviews + cost.costCents === 0 &&
		!counts.partners.length
	return { ...insights, empty }
}
