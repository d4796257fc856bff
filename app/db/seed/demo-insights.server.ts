import { createHash, randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import * as t from '~/db/schema'
import { type DbOrTx } from '~/db/db.server'
import { type CountKind } from '~/counting/kinds'
import { addDays } from '~/domain/insights/insights'
import { tallinnDay } from '~/utils/time'
import { seededRandom } from './seeded-random'

/**
 * The demo workshop's daily counts (issue 37, decision 0155): about 400 days of profile views,
 * appearances in searches and a few widget requests, growing slowly, busier on weekdays, some of
 * them through the demo partner site, so that its growth page (/workshop-insights) shows real
 * figures for both periods. Counts are figures without people: nothing else needs to agree with them.
 */

/** The demo partner site: looked up by name, made if missing (another part of the demo may make it first). */
export const DEMO_PARTNER = { name: 'Autoportaal.ee', origins: ['https://www.autoportaal.ee', 'https://autoportaal.ee'] }

const DAYS = 400

export async function demoPartnerId(tx: DbOrTx): Promise<string> {
	const [found] = await tx.select({ id: t.partners.id }).from(t.partners).where(eq(t.partners.name, DEMO_PARTNER.name)).limit(1)
	if (found) return found.id
	// The hash of random bytes: a key nobody holds (the demo partner's figures are seeded, its calls never come).
	const keyHash = createHash('sha256').update(randomBytes(32)).digest('hex')
	const [made] = await tx
		.insert(t.partners)
		.values({ name: DEMO_PARTNER.name, keyHash, keyPrefix: 'pk_demo…', allowedOrigins: DEMO_PARTNER.origins })
		.returning({ id: t.partners.id })
	return made!.id
}

type Row = { day: string; kind: CountKind; workshopId: string; partnerId: string | null; count: number }

export async function insertDemoInsights(tx: DbOrTx, input: { workshopId: string; now: Date }) {
	const partnerId = await demoPartnerId(tx)
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
		await tx.insert(t.dailyCounts).values(rows.slice(start, start + 500)).onConflictDoNothing()
	}
}

