/**
 * The demo's partner sites (issue 37, decision 0154), called by the demo loader at its end
 * (demo-data.server.ts): a car club's site that shows the widgets, with what its key brought day by
 * day over the last 30 days, so /admin/partners/{id} has figures to show; and a tyre shop's site
 * whose key was revoked, so the list shows both states. Their keys are made as the administration
 * makes them and shown to nobody: only their hashes are stored.
 */
import * as t from '~/db/schema'
import { sql } from 'drizzle-orm'
import { type DbOrTx } from '~/db/db.server'
import { type CountKind } from '~/counting/kinds'
import { shiftDay } from '~/domain/partners/partners'
import { newPartnerKey } from '~/domain/partners/partners.server'
import { tallinnDay } from '~/utils/time'

export const demoPartners = [
	// The car club's key is older than the demo workshop's year of counts that name it (demo-insights.server.ts).
	{ name: 'Autoklubi (demo)', allowedOrigins: ['https://autoklubi.example', 'https://www.autoklubi.example', 'http://localhost:8080'], rateLimitPerMinute: 600, createdDaysAgo: 420 },
	{ name: 'Rehvimaailm (demo)', allowedOrigins: ['https://rehvimaailm.example'], rateLimitPerMinute: 120, createdDaysAgo: 75, revokedDaysAgo: 12 },
] as const

const DAY = 24 * 60 * 60 * 1000
const FIGURE_DAYS = 30

type Row = { day: string; kind: CountKind; workshopId: string | null; partnerId: string; count: number }

/**
 * Inserts the demo partners and the car club's daily counts; `random` is the loader's seeded one.
 * Returns the car club's id: the demo workshop's year of counts (demo-insights.server.ts) names it.
 */
export async function insertDemoPartners(tx: DbOrTx, input: { adminId: string; workshopIds: string[]; now: Date; random: () => number }): Promise<string> {
	const { adminId, workshopIds, now, random } = input
	const ids: string[] = []
	for (const partner of demoPartners) {
		const { keyHash, keyPrefix } = newPartnerKey()
		const revokedAt = 'revokedDaysAgo' in partner ? new Date(now.getTime() - partner.revokedDaysAgo * DAY) : null
		const [row] = await tx
			.insert(t.partners)
			.values({
				name: partner.name,
				keyHash,
				keyPrefix,
				allowedOrigins: [...partner.allowedOrigins],
				rateLimitPerMinute: partner.rateLimitPerMinute,
				createdBy: adminId,
				createdAt: new Date(now.getTime() - partner.createdDaysAgo * DAY),
				revokedAt,
			})
			.returning({ id: t.partners.id })
		ids.push(row!.id)
	}

	// The car club: a few dozen widget views a day, more at the weekend; its visitors search, open
	// workshops (the demo workshop most), write now and then and ask for offers.
	const partnerId = ids[0]!
	const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1))
	const shown = workshopIds.slice(0, 6)
	const rows: Row[] = []
	const today = tallinnDay(now)
	for (let back = 0; back < FIGURE_DAYS; back++) {
		const day = shiftDay(today, -back)
		const weekend = [0, 6].includes(new Date(`${day}T12:00:00Z`).getUTCDay())
		const views = between(18, 45) + (weekend ? 15 : 0)
		const searches = Math.round(views * (0.5 + random() * 0.3))
		const add = (kind: CountKind, count: number, workshopId: string | null = null) => {
			if (count > 0) rows.push({ day, kind, workshopId, partnerId, count })
		}
		add('widget-view', views)
		add('search', searches)
		shown.forEach((workshopId, index) => {
			add('search-appearance', Math.round(searches * (0.9 - index * 0.12)), workshopId)
			add('widget-profile-view', between(0, index === 0 ? 6 : 3), workshopId)
		})
		add('contact-message', random() < 0.3 ? between(1, 2) : 0)
		add('widget-request', random() < 0.35 ? 1 : 0, shown[0] ?? null)
	}
	if (!rows.length) return partnerId
	// Added to whatever else the demo counted for the same day, kind, workshop and partner.
	await tx
		.insert(t.dailyCounts)
		.values(rows)
		.onConflictDoUpdate({
			target: [t.dailyCounts.day, t.dailyCounts.kind, t.dailyCounts.workshopId, t.dailyCounts.partnerId],
			set: { count: sql`${t.dailyCounts.count} + excluded.count` },
		})
	return partnerId
}
