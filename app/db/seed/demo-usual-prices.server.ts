/**
 * The demo's usual prices (issue 35, docs/decisions/0148), called by the demo loader before the
 * story (demo-data.server.ts): enough completed jobs that a range shows in Tallinn (Harju County)
 * and Tartu (Tartu County) for two services each, brakes and diagnostics in Tallinn, an oil change
 * and diagnostics in Tartu: six to eight single-service jobs of a family car by three or four
 * workshops each, finished one to nine months ago.
 *
 * Made with the product's moves (request → offer → selected → completed with its final price, the
 * storyteller's `job`), dated back to their days. They come before the story's own moves, so the
 * free package's monthly offer limit the story's moves check counts only the story's offers (these
 * are dated at least a month back). The notifications the moves left are taken away: the demo's
 * bells are the story's. The ranges themselves are computed once the whole demo is in.
 */
import { inArray } from 'drizzle-orm'
import * as t from '~/db/schema'
import { type DbOrTx } from '~/db/db.server'
import { type WorkshopActor } from '~/utils/auth.server'

const DAY = 24 * 60 * 60 * 1000

/** The storyteller's `job` (demo-data.server.ts): a request, an offer, its selection and the completed job, each on its day. */
export type DemoJobStory = {
	job(
		customerId: string,
		workshop: WorkshopActor,
		r: {
			vehicle: string
			services: string[]
			details: string
			location: string
			city: string
			preferredAt: Date
			price: number
			finalPrice: number
			description?: string
			at: { created: Date; offered: Date; selected: Date; completed: Date }
			mileage: number
		},
	): Promise<{ requestId: string; offerId: string }>
}

export type DemoPriceJobsInput = {
	story: DemoJobStory
	/** The demo workshops by their slug (demoWorkshops in demo-data.server.ts). */
	workshops: Map<string, WorkshopActor>
	/** The other customers' family cars, by the owner's first name. */
	customers: Map<string, { id: string; vehicle: string; mileage: number }>
	now: Date
}

/** `finalPrice`: the bill, when it came below the offer (a part cheaper than quoted). */
type PriceJob = { service: string; city: 'tallinn' | 'tartu'; workshop: string; who: string; price: number; finalPrice?: number; daysAgo: number; details: string }

/**
 * The jobs, each a family car's (Golf, 520d, Superb, Ceed, Focus) at a workshop that serves its
 * brand in the request's city. Days ago: at least 33, so every offer is in an earlier month.
 */
const priceJobs: PriceJob[] = [
	// Tallinn, brakes: the demo workshop, Tallinna Rehvikeskus, EV Garaaž and Premium Auto Service.
	{ service: 'brakes', city: 'tallinn', workshop: 'kask-autoteenindus', who: 'Liis', price: 175, daysAgo: 40, details: 'Esipidurite klotsid ja kettad.' },
	{ service: 'brakes', city: 'tallinn', workshop: 'kask-autoteenindus', who: 'Anu', price: 160, finalPrice: 152, daysAgo: 95, details: 'Pidurid krigisevad.' },
	{ service: 'brakes', city: 'tallinn', workshop: 'tallinna-rehvikeskus', who: 'Tõnu', price: 210, daysAgo: 60, details: 'Tagumised pidurikettad ja klotsid.' },
	{ service: 'brakes', city: 'tallinn', workshop: 'tallinna-rehvikeskus', who: 'Anu', price: 195, daysAgo: 150, details: 'Front brake pads and discs, please.' },
	{ service: 'brakes', city: 'tallinn', workshop: 'ev-garaaz', who: 'Kadri', price: 185, daysAgo: 75, details: 'Piduripedaal on pehme, palun kontroll ja remont.' },
	{ service: 'brakes', city: 'tallinn', workshop: 'ev-garaaz', who: 'Olga', price: 240, daysAgo: 200, details: 'Замена передних тормозных дисков и колодок.' },
	{ service: 'brakes', city: 'tallinn', workshop: 'premium-auto-service', who: 'Olga', price: 265, daysAgo: 120, details: 'Tagasilla pidurid, originaalvaruosad.' },
	{ service: 'brakes', city: 'tallinn', workshop: 'premium-auto-service', who: 'Kadri', price: 220, finalPrice: 214, daysAgo: 250, details: 'Esipidurid ja pidurivedelik.' },
	// Tallinn, diagnostics: the demo workshop, EV Garaaž and Premium Auto Service.
	{ service: 'diagnostics', city: 'tallinn', workshop: 'kask-autoteenindus', who: 'Anu', price: 45, daysAgo: 33, details: 'Check engine tuli põleb.' },
	{ service: 'diagnostics', city: 'tallinn', workshop: 'kask-autoteenindus', who: 'Tõnu', price: 55, daysAgo: 110, details: 'Mootor töötab külmalt ebaühtlaselt.' },
	{ service: 'diagnostics', city: 'tallinn', workshop: 'ev-garaaz', who: 'Liis', price: 60, daysAgo: 55, details: 'Akutuli vilgub armatuuris.' },
	{ service: 'diagnostics', city: 'tallinn', workshop: 'ev-garaaz', who: 'Kadri', price: 49, daysAgo: 170, details: 'Error on the dashboard after a cold start.' },
	{ service: 'diagnostics', city: 'tallinn', workshop: 'premium-auto-service', who: 'Olga', price: 79, daysAgo: 85, details: 'Ошибка двигателя, нужна диагностика.' },
	{ service: 'diagnostics', city: 'tallinn', workshop: 'premium-auto-service', who: 'Kadri', price: 69, daysAgo: 220, details: 'ABS-i tuli põleb.' },
	// Tartu, an oil change: Tartu Autoremont, Emajõe Autohooldus and Raadi Autokeskus.
	{ service: 'oil-change', city: 'tartu', workshop: 'tartu-autoremont', who: 'Tõnu', price: 89, daysAgo: 45, details: 'Õli ja õlifilter.' },
	{ service: 'oil-change', city: 'tartu', workshop: 'tartu-autoremont', who: 'Anu', price: 79, daysAgo: 130, details: 'Õlivahetus, õli on kaasas.' },
	{ service: 'oil-change', city: 'tartu', workshop: 'emajoe-autohooldus', who: 'Liis', price: 75, daysAgo: 70, details: 'Õlivahetus enne pikka sõitu.' },
	{ service: 'oil-change', city: 'tartu', workshop: 'emajoe-autohooldus', who: 'Kadri', price: 85, daysAgo: 190, details: 'Oil and filter change.' },
	{ service: 'oil-change', city: 'tartu', workshop: 'raadi-autokeskus', who: 'Olga', price: 99, daysAgo: 100, details: 'Замена масла и фильтра.' },
	{ service: 'oil-change', city: 'tartu', workshop: 'raadi-autokeskus', who: 'Kadri', price: 82, daysAgo: 260, details: 'Õli ja filtrid.' },
	// Tartu, diagnostics: the same three.
	{ service: 'diagnostics', city: 'tartu', workshop: 'tartu-autoremont', who: 'Olga', price: 65, daysAgo: 35, details: 'Käigukasti veateade.' },
	{ service: 'diagnostics', city: 'tartu', workshop: 'tartu-autoremont', who: 'Kadri', price: 55, daysAgo: 140, details: 'Mootori tuli põleb.' },
	{ service: 'diagnostics', city: 'tartu', workshop: 'emajoe-autohooldus', who: 'Anu', price: 45, daysAgo: 80, details: 'Auto ei käivitu hommikuti hästi.' },
	{ service: 'diagnostics', city: 'tartu', workshop: 'emajoe-autohooldus', who: 'Tõnu', price: 50, daysAgo: 210, details: 'Veakoodide lugemine.' },
	{ service: 'diagnostics', city: 'tartu', workshop: 'raadi-autokeskus', who: 'Liis', price: 59, daysAgo: 65, details: 'Kliima ei jahuta, palun diagnostika.' },
	{ service: 'diagnostics', city: 'tartu', workshop: 'raadi-autokeskus', who: 'Anu', price: 49, daysAgo: 180, details: 'Veateade armatuuril.' },
]

const cityNames = { tallinn: 'Tallinn', tartu: 'Tartu' } as const

/** The jobs behind the demo's usual prices; returns how many were made. */
export async function insertDemoPriceJobs(tx: DbOrTx, { story, workshops, customers, now }: DemoPriceJobsInput): Promise<number> {
	const ago = (days: number) => new Date(now.getTime() - days * DAY)
	const touched: string[] = []
	for (const job of priceJobs) {
		const workshop = workshops.get(job.workshop)
		const customer = customers.get(job.who)
		if (!workshop || !customer) throw new Error(`demo price job: no ${workshop ? job.who : job.workshop}`)
		const { requestId, offerId } = await story.job(customer.id, workshop, {
			vehicle: customer.vehicle,
			services: [job.service],
			details: job.details,
			location: cityNames[job.city],
			city: job.city,
			preferredAt: ago(job.daysAgo + 1),
			price: job.price,
			finalPrice: job.finalPrice ?? job.price,
			at: { created: ago(job.daysAgo + 3), offered: ago(job.daysAgo + 2.5), selected: ago(job.daysAgo + 2), completed: ago(job.daysAgo) },
			// The odometer then: some 40 km a day less than today's.
			mileage: Math.max(0, customer.mileage - job.daysAgo * 40),
		})
		touched.push(requestId, offerId)
	}
	// What the moves told the workshops and customers, long ago: not in anyone's bell now.
	await tx.delete(t.notifications).where(inArray(t.notifications.receivedId, touched))
	return priceJobs.length
}
