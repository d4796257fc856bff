import { sql } from 'drizzle-orm'
import * as t from '~/db/schema'
import { type DbOrTx } from '~/db/db.server'
import { type CountKind } from '~/counting/kinds'
import { addDays } from '~/domain/insights/insights'
import { tallinnDay } from '~/utils/time'
import { seededRandom } from './seeded-random'

/**
 * The demo workshop's daily counts (issue 37, decision 0155): about 400 days of profile views,
 * appearances in searches and a few widget requests, growing slowly, busier on weekdays, some of
 * them through the demo car club's site (demo-partners.server.ts), so that its growth page
 * (/workshop-insights) shows real figures for both periods. Counts are figures without people:
 * nothing else needs to agree with them.
 */

const DAYS = 400

type Row = { day: string; kind: CountKind; workshopId: string; partnerId: string | null; count: number }

export async function insertDemoInsights(tx: DbOrTx, input: { workshopId: string; partnerId: string; now: Date }) {
	const { partnerId } = input
	const random = seededRandom(20_370_037)
	const today = tallinnDay(input.now)
	const rows: Row[] = []
	for (let ago = 0; ago < DAYS; ago++) {
		const day = addDays(today, -ago)
		const weekday = new Date(`${day}T12:00:00Z`).getUTCDay()
		// A slow growth over the year and more visitors on weekdays than at the weekend.
		const level = (1 + (DAYS - ago) / DAYS) * (weekday === 0 ? 0.45 : weekday === 6 ? 0.7 : 1)
		const amount = (base: number) => Math.round(base * level * (0.6 + random() * 0.8))
		const add = (kind: CountKind, count: number, throughPartner = false) => {
			if (count > 0) rows.push({ day, kind, workshopId: input.workshopId, partnerId: throughPartner ? partnerId : null, count })
		}
		add('profile-view', amount(9))
		add('search-appearance', amount(42))
		add('widget-profile-view', amount(1.2))
		add('widget-profile-view', amount(2.5), true)
		add('search-appearance', amount(11), true)
		add('widget-request', random() < 0.08 * level ? 1 : 0, true)
	}
	for (let start = 0; start < rows.length; start += 500) {
		// Added to what the car club's own figures counted for the same day, kind and workshop.
		await tx
			.insert(t.dailyCounts)
			.values(rows.slice(start, start + 500))
			.onConflictDoUpdate({
				target: [t.dailyCounts.day, t.dailyCounts.kind, t.dailyCounts.workshopId, t.dailyCounts.partnerId],
				set: { count: sql`${t.dailyCounts.count} + excluded.count` },
			})
	}
}

